import { useEffect, useRef, useState } from 'preact/hooks';
import { readKey } from '../session.js';
import { Loaded, useResource } from '../ui/resource.js';
import { ShownOnce } from '../ui/shown-once.js';
import { ConfirmButton } from './confirm-button.js';
import { CreateKeyForm } from './keys/create-form.js';
import { apiKeys, type CreatedApiKey } from './keys/requests.js';
import { Time } from './time.js';

/** The API keys view: the account's keys, a new one (shown once), and revoking one behind a confirmation. */
export function KeysView(_props: object) {
  const [list, reload] = useResource((signal) => apiKeys.list(signal), []);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [status, setStatus] = useState('');
  // The form is made when the dialog opens (fresh each time, loading the catalog only then).
  const [formOpen, setFormOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  // The key this dashboard is signed in with, recognised by its prefix: revoking it signs the dashboard out.
  const signedInWith = readKey();

  // Opened once the form is there, so showModal moves focus to its first field.
  useEffect(() => {
    if (formOpen) dialog.current?.showModal();
  }, [formOpen]);

  useEffect(() => {
    if (created) document.querySelector<HTMLElement>('.shown-once h2')?.focus();
  }, [created]);

  return (
    <section aria-labelledby="keys-title">
      <div class="section-head">
        <h1 id="keys-title" tabIndex={-1}>
          API keys
        </h1>
        <button
          type="button"
          onClick={() => {
            setFormOpen(true);
          }}
        >
          New API key
        </button>
      </div>
      <dialog ref={dialog} class="form-dialog" aria-labelledby="new-key-title" onClose={() => setFormOpen(false)}>
        {formOpen && (
          <CreateKeyForm
            onCancel={() => dialog.current?.close()}
            onCreated={(key) => {
              dialog.current?.close();
              setCreated(key);
              setStatus('');
              reload();
            }}
          />
        )}
      </dialog>
      {created && <ShownOnce label="New API key" value={created.key} onDone={() => setCreated(null)} />}
      <p role="status">{status}</p>
      <Loaded resource={list} what="API keys" onRetry={reload} isEmpty={(data) => data.data.length === 0}>
        {({ data }) => (
          <table class="admin-table">
            <caption class="visually-hidden">API keys of this account</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key starts with</th>
                <th scope="col">Scopes</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Revoked</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.map((key) => {
                const isOwn = signedInWith?.startsWith(key.prefix) ?? false;
                const label = key.name ?? key.prefix;
                return (
                  <tr key={key.id}>
                    <th scope="row">
                      {key.name ?? <span class="hint">unnamed</span>}
                      {isOwn && <div class="hint">this dashboard is signed in with it</div>}
                    </th>
                    <td data-label="Key starts with">
                      <code>{key.prefix}…</code>
                    </td>
                    <td data-label="Scopes">
                      {key.scopes.map((scope) => (
                        <code class="scope">{scope}</code>
                      ))}
                    </td>
                    <td data-label="Created">
                      <Time value={key.createdAt} />
                    </td>
                    <td data-label="Last used">{key.lastUsedAt ? <Time value={key.lastUsedAt} /> : 'never'}</td>
                    <td data-label="Revoked">
                      {key.revokedAt ? (
                        <span class="status status-inactive">
                          revoked <Time value={key.revokedAt} />
                        </span>
                      ) : (
                        'no'
                      )}
                    </td>
                    <td>
                      {!key.revokedAt && (
                        <ConfirmButton
                          label={`Revoke ${label}`}
                          title={`Revoke ${label}?`}
                          text={
                            isOwn
                              ? 'This dashboard is signed in with this key: revoking it signs you out. Requests with it are refused from now on, on every instance. This cannot be undone.'
                              : 'Requests with this key are refused from now on, on every instance. This cannot be undone.'
                          }
                          confirmLabel="Revoke key"
                          busyLabel="Revoking…"
                          danger
                          onConfirm={async () => {
                            await apiKeys.revoke(key.id);
                            setStatus(`${label} was revoked.`);
                            reload();
                          }}
                        />
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </Loaded>
    </section>
  );
}
