import { useEffect, useRef, useState } from 'preact/hooks';
import { hrefOf } from '../../route.js';
import { Loaded, useResource } from '../../ui/resource.js';
import { ShownOnce } from '../../ui/shown-once.js';
import { Time } from '../time.js';
import { CreateWebhookForm } from './create-form.js';
import { webhooks, type CreatedWebhook } from './requests.js';

const pageSize = 20;

/** The account's webhooks, a page at a time, and making a new one (its secret shown once). */
export function WebhookList() {
  const [page, setPage] = useState(1);
  const [list, reload] = useResource((signal) => webhooks.list({ page, limit: pageSize }, signal), [page]);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  // The form is made when the dialog opens (fresh each time, loading the catalog only then).
  const [formOpen, setFormOpen] = useState(false);

  // The secret box takes focus when it appears: it is what the user must act on.
  // Opened once the form is there, so showModal moves focus to its first field.
  useEffect(() => {
    if (formOpen) dialog.current?.showModal();
  }, [formOpen]);

  useEffect(() => {
    if (created) document.querySelector<HTMLElement>('.shown-once h2')?.focus();
  }, [created]);

  const open = () => {
    setFormOpen(true);
  };

  return (
    <section aria-labelledby="webhooks-title">
      <div class="section-head">
        <h1 id="webhooks-title" tabIndex={-1}>
          Webhooks
        </h1>
        <button type="button" onClick={open}>
          New webhook
        </button>
      </div>
      <p class="hint">Each webhook receives the events it subscribes to, signed per Standard Webhooks.</p>
      <dialog ref={dialog} class="form-dialog" aria-labelledby="new-webhook-title" onClose={() => setFormOpen(false)}>
        {formOpen && (
          <CreateWebhookForm
            onCancel={() => dialog.current?.close()}
            onCreated={(webhook) => {
              dialog.current?.close();
              setCreated(webhook);
              reload();
            }}
          />
        )}
      </dialog>
      {created && (
        <ShownOnce label="Signing secret of the new webhook" value={created.secret} onDone={() => setCreated(null)} />
      )}
      <Loaded
        resource={list}
        what="webhooks"
        onRetry={reload}
        isEmpty={(data) => data.data.length === 0 && page === 1}
        empty={<p>No webhooks yet. Create one to have events POSTed to your URL.</p>}
      >
        {({ data, pagination }) => (
          <>
            <table class="admin-table">
              <caption class="visually-hidden">Webhooks of this account</caption>
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Events</th>
                  <th scope="col">State</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {data.map((webhook) => (
                  <tr key={webhook.id}>
                    <th scope="row">
                      <a href={hrefOf({ name: 'webhooks', webhookId: webhook.id })}>{webhook.url}</a>
                      {webhook.description && <div class="hint">{webhook.description}</div>}
                    </th>
                    <td data-label="Events">{webhook.events.join(', ')}</td>
                    <td data-label="State">
                      <span class={`status status-${webhook.enabled ? 'active' : 'inactive'}`}>
                        {webhook.enabled ? 'enabled' : 'disabled'}
                      </span>
                    </td>
                    <td data-label="Created">
                      <Time value={webhook.createdAt} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {pagination.totalPages > 1 && (
              <nav class="pager" aria-label="Pages of webhooks">
                <button type="button" class="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                  Previous page
                </button>
                <span>
                  Page {pagination.page} of {pagination.totalPages}
                </span>
                <button
                  type="button"
                  class="secondary"
                  disabled={!pagination.hasMore}
                  onClick={() => setPage(page + 1)}
                >
                  Next page
                </button>
              </nav>
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}
