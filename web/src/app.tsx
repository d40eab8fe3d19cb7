import type { ComponentType } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { onUnauthorized } from './api.js';
import { forgetKey, readKey } from './session.js';
import { SignIn } from './sign-in.js';
import type { SignedInProps } from './signed-in.js';

/**
 * The views behind sign-in are a chunk of their own, fetched once a key is
 * given: the first load carries only what the sign-in form needs.
 */
const loadSignedIn = () => import('./signed-in.js').then((module) => module.SignedIn);

export function App() {
  const [signedIn, setSignedIn] = useState(() => readKey() !== null);
  const [notice, setNotice] = useState<string | null>(null);
  const [SignedIn, setSignedInView] = useState<ComponentType<SignedInProps> | null>(null);
  const main = useRef<HTMLElement>(null);

  const signOut = (message: string | null) => {
    forgetKey();
    setNotice(message);
    setSignedIn(false);
  };

  useEffect(() => onUnauthorized(() => signOut('Your API key is no longer accepted. Sign in again.')), []);

  useEffect(() => {
    if (signedIn && SignedIn === null) {
      loadSignedIn().then(
        (view) => setSignedInView(() => view),
        () => signOut('The dashboard could not be loaded; reload the page.'),
      );
    }
  }, [signedIn]);

  useEffect(() => {
    if (!signedIn) main.current?.querySelector<HTMLElement>('h1')?.focus();
  }, [signedIn]);

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
  if (SignedIn === null) return <p role="status">Loading…</p>;
  return <SignedIn onSignOut={() => signOut('Signed out.')} />;
}
