import { useEffect, useRef } from 'preact/hooks';
import { AgentPage } from './agent-page.js';
import { AgentsList } from './agents-list.js';
import { hrefOf, navigate, sectionOf, sections, useRoute, type Route } from './route.js';
import {
  AgentEdit,
  ApprovalsView,
  CharactersView,
  EventsView,
  KeysView,
  KnowledgeView,
  RunPage,
  RunsView,
  UsageView,
  WebhooksView,
} from './views.js';

export interface SignedInProps {
  onSignOut: () => void;
}

/** A key that changes whenever the page changes (not when a tab's state does): focus moves on it. */
function pageKey(route: Route): string {
  if (route.name === 'agent') return `agent/${route.agentId}`;
  if (route.name === 'knowledge') return `knowledge/${route.knowledgeBaseId ?? ''}`;
  if (route.name === 'webhooks') return `webhooks/${route.webhookId ?? ''}`;
  if (route.name === 'run') return `run/${route.agentId}/${route.runId}`;
  return route.name;
}

/** Everything behind sign-in: the navigation and the view the URL's fragment names. */
export function SignedIn({ onSignOut }: SignedInProps) {
  const route = useRoute();
  const main = useRef<HTMLElement>(null);
  const current = sectionOf(route);

  // A new view moves focus to its heading, so keyboard and screen reader users land on it.
  // A chunk still loading has no heading yet: the observer catches it when it appears.
  useEffect(() => {
    const focusHeading = () => {
      const heading = main.current?.querySelector<HTMLElement>('h1');
      if (!heading) return false;
      heading.focus();
      return true;
    };
    if (focusHeading() || !main.current) return;
    const observer = new MutationObserver(() => {
      if (focusHeading()) observer.disconnect();
    });
    observer.observe(main.current, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [pageKey(route)]);

  return (
    <>
      <a
        class="skip-link"
        href="#main"
        onClick={(event) => {
          // The fragment holds the route: move focus instead of navigating.
          event.preventDefault();
          main.current?.querySelector<HTMLElement>('h1, h2')?.focus();
        }}
      >
        Skip to content
      </a>
      <header class="top-bar">
        <a class="brand" href={hrefOf({ name: 'agents' })}>
          agentd
        </a>
        <nav aria-label="Main">
          {sections.map(([name, label]) => (
            <a href={`#/${name === 'agents' ? '' : name}`} aria-current={current === name ? 'page' : undefined}>
              {label}
            </a>
          ))}
          <a href="/docs">API docs</a>
        </nav>
        <button type="button" class="secondary" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <main id="main" ref={main}>
        <View route={route} />
      </main>
    </>
  );
}

function View({ route }: { route: Route }) {
  switch (route.name) {
    case 'agents':
      return <AgentsList />;
    case 'new':
      return (
        <AgentEdit agent={null} onSaved={(agent) => navigate({ name: 'agent', agentId: agent.id, tab: 'chat' })} />
      );
    case 'agent':
      return <AgentPage agentId={route.agentId} tab={route.tab} />;
    case 'knowledge':
      return <KnowledgeView knowledgeBaseId={route.knowledgeBaseId} />;
    case 'webhooks':
      return <WebhooksView webhookId={route.webhookId} />;
    case 'keys':
      return <KeysView />;
    case 'events':
      return <EventsView />;
    case 'usage':
      return <UsageView />;
    case 'approvals':
      return <ApprovalsView />;
    case 'characters':
      return <CharactersView />;
    case 'runs':
      return <RunsView />;
    case 'run':
      return <RunPage agentId={route.agentId} runId={route.runId} />;
  }
}
