import { useState } from 'preact/hooks';
import { ApiError, api } from './api.js';
import { storeKey } from './session.js';

/** Sign in with an API key: checked against the API first, then kept for this tab only. */
export function SignIn({ notice, onSignedIn }: { notice: string | null; onSignedIn: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const key = (new FormData(form).get('apiKey') as string | null)?.trim() ?? '';
    if (!key) {
      setError('Enter an API key.');
      form.querySelector<HTMLInputElement>('#api-key')?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await api.checkKey(key);
      storeKey(key);
      onSignedIn();
    } catch (caught) {
      const status = caught instanceof ApiError ? caught.status : 0;
      setError(
        status === 401
          ? 'That API key was not accepted.'
          : status === 403
            ? 'That key lacks the agents:read scope the dashboard needs.'
            : caught instanceof ApiError
              ? caught.message
              : 'The server could not be reached.',
      );
      form.querySelector<HTMLInputElement>('#api-key')?.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card sign-in" onSubmit={submit} aria-labelledby="sign-in-title" noValidate>
      <h1 id="sign-in-title" tabIndex={-1}>
        Sign in to agentd
      </h1>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <label for="api-key">API key</label>
      <input
        id="api-key"
        name="apiKey"
        type="password"
        autoComplete="off"
        spellcheck={false}
        required
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? 'sign-in-error api-key-hint' : 'api-key-hint'}
      />
      <p id="api-key-hint" class="hint">
        Kept in this tab's session storage only, until you sign out or close the tab.
      </p>
      {error && (
        <p id="sign-in-error" class="field-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
