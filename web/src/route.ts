import { useEffect, useState } from 'preact/hooks';

/**
 * Where the dashboard is, kept in the URL's fragment (`#/agents/agt_…/chat`):
 * the server serves one page, and a fragment never reaches it or a log.
 * Only ids go there, never the key.
 */
export type Route =
  | { name: 'agents' }
  | { name: 'new' }
  /** `evalId`: one eval's results, on the agent's Evals tab. */
  | { name: 'agent'; agentId: string; tab: AgentTab; evalId?: string }
  | { name: 'knowledge'; knowledgeBaseId?: string }
  | { name: 'webhooks'; webhookId?: string }
  | { name: 'keys' }
  | { name: 'events' }
  | { name: 'usage' }
  | { name: 'approvals' }
  | { name: 'characters' }
  | { name: 'runs' }
  | { name: 'run'; agentId: string; runId: string };

export const agentTabs = [
  'chat',
  'history',
  'memory',
  'tasks',
  'runs',
  'platforms',
  'metrics',
  'connect',
  'edit',
  'versions',
  'evals',
] as const;
export type AgentTab = (typeof agentTabs)[number];

/** The service-wide views, in the order the navigation shows them. */
export const sections = [
  ['agents', 'Agents'],
  ['knowledge', 'Knowledge'],
  ['webhooks', 'Webhooks'],
  ['keys', 'API keys'],
  ['runs', 'Runs'],
  ['events', 'Events'],
  ['usage', 'Usage'],
  ['approvals', 'Approvals'],
  ['characters', 'Characters'],
] as const;
export type Section = (typeof sections)[number][0];

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [head, id, tail, subId] = parts;
  switch (head) {
    case 'new':
      return { name: 'new' };
    case 'agents':
      if (!id) return { name: 'agents' };
      if (tail === 'runs' && subId) return { name: 'run', agentId: id, runId: subId };
      if (tail === 'evals' && subId) return { name: 'agent', agentId: id, tab: 'evals', evalId: subId };
      return { name: 'agent', agentId: id, tab: agentTabs.find((candidate) => candidate === tail) ?? 'chat' };
    case 'knowledge':
      return id ? { name: 'knowledge', knowledgeBaseId: id } : { name: 'knowledge' };
    case 'webhooks':
      return id ? { name: 'webhooks', webhookId: id } : { name: 'webhooks' };
    case 'keys':
    case 'events':
    case 'usage':
    case 'approvals':
    case 'characters':
    case 'runs':
      return { name: head };
    default:
      return { name: 'agents' };
  }
}

export function hrefOf(route: Route): string {
  const segment = encodeURIComponent;
  switch (route.name) {
    case 'agents':
      return '#/';
    case 'new':
      return '#/new';
    case 'agent':
      return `#/agents/${segment(route.agentId)}/${route.tab}${route.evalId ? `/${segment(route.evalId)}` : ''}`;
    case 'knowledge':
      return route.knowledgeBaseId ? `#/knowledge/${segment(route.knowledgeBaseId)}` : '#/knowledge';
    case 'webhooks':
      return route.webhookId ? `#/webhooks/${segment(route.webhookId)}` : '#/webhooks';
    case 'run':
      return `#/agents/${segment(route.agentId)}/runs/${segment(route.runId)}`;
    default:
      return `#/${route.name}`;
  }
}

/** The navigation entry a route belongs to (an agent's page belongs to Agents). */
export function sectionOf(route: Route): Section | null {
  if (route.name === 'agent') return 'agents';
  if (route.name === 'new') return null;
  if (route.name === 'run') return 'runs';
  return route.name;
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
