import { useEffect, useRef } from 'preact/hooks';
import { AgentForm } from './agent-form.js';
import { AgentPage } from './agent-page.js';
import { AgentsList } from './agents-list.js';
import { hrefOf, navigate, useRoute } from './route.js';

export interface SignedInProps {
  onSignOut: () => void;
}

/** Everything behind sign-in: the navigation and the view the URL's fragment names. */
export function SignedIn({ onSignOut }: SignedInProps) {
  const route = useRoute();
  const main = useRef<HTMLElement>(null);

  // A new view moves focus to its heading, so keyboard and screen reader users land on it.
  useEffect(() => {
    main.current?.querySelector<HTMLElement>('h1, h2')?.focus();
  }, [route.name, route.name === 'agent' ? route.agentId : '']);

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
          <a href={hrefOf({ name: 'agents' })} aria-current={route.name === 'agents' ? 'page' : undefined}>
            Agents
          </a>
          <a href={hrefOf({ name: 'new' })} aria-current={route.name === 'new' ? 'page' : undefined}>
            New agent
          </a>
          <a href="/docs">API docs</a>
        </nav>
        <button type="button" class="secondary" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <main id="main" ref={main}>
        {route.name === 'agents' && <AgentsList />}
        {route.name === 'new' && (
          <AgentForm agent={null} onSaved={(agent) => navigate({ name: 'agent', agentId: agent.id, tab: 'chat' })} />
        )}
        {route.name === 'agent' && <AgentPage agentId={route.agentId} tab={route.tab} />}
      </main>
    </>
  );
}
