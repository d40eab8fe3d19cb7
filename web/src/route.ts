import { useEffect, useState } from 'preact/hooks';

/**
 * Where the dashboard is, kept in the URL's fragment (`#/agents/agt_…/chat`):
 * the server serves one page, and a fragment never reaches it or a log.
 * Only ids go there, never the key.
 */
export type Route = { name: 'agents' } | { name: 'new' } | { name: 'agent'; agentId: string; tab: AgentTab };

export const agentTabs = ['chat', 'history', 'metrics', 'edit'] as const;
export type AgentTab = (typeof agentTabs)[number];

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'new') return { name: 'new' };
  if (parts[0] === 'agents' && parts[1]) {
    const tab = agentTabs.find((candidate) => candidate === parts[2]) ?? 'chat';
    return { name: 'agent', agentId: parts[1], tab };
  }
  return { name: 'agents' };
}

export function hrefOf(route: Route): string {
  if (route.name === 'new') return '#/new';
  if (route.name === 'agent') return `#/agents/${encodeURIComponent(route.agentId)}/${route.tab}`;
  return '#/';
}

export function navigate(route: Route): void {
  location.hash = hrefOf(route);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return route;
}
