import { useEffect, useRef, useState } from 'preact/hooks';
import { onUnauthorized } from './api.js';
import { AgentForm } from './agent-form.js';
import { AgentPage } from './agent-page.js';
import { AgentsList } from './agents-list.js';
import { hrefOf, navigate, useRoute } from './route.js';
import { forgetKey, readKey } from './session.js';
import { SignIn } from './sign-in.js';

export function App() {
  const [signedIn, setSignedIn] = useState(() => readKey() !== null);
  const [notice, setNotice] = useState<string | null>(null);
  const route = useRoute();
  const main = useRef<HTMLElement>(null);

  const signOut = (message: string | null) => {
    forgetKey();
    setNotice(message);
    setSignedIn(false);
  };

  useEffect(() => onUnauthorized(() => signOut('Your API key is no longer accepted. Sign in again.')), []);

  // A new view moves focus to its heading, so keyboard and screen reader users land on it.
  useEffect(() => {
    main.current?.querySelector<HTMLElement>('h1, h2')?.focus();
  }, [route.name, route.name === 'agent' ? route.agentId : '', signedIn]);

  if (!signedIn) {
    return (
      <main ref={main} class="sign-in-page">
        <SignIn
          notice={notice}
          onSignedIn={() => {
            setNotice(null);
            setSignedIn(true);
          }}
        />
      </main>
    );
  }

  return (
    <>
      <a class="skip-link" href="#main">
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
        <button type="button" class="secondary" onClick={() => signOut('Signed out.')}>
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
