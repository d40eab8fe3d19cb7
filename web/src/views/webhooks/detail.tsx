import { useEffect, useState } from 'preact/hooks';
import { hrefOf, navigate } from '../../route.js';
import { Loaded, messageOf, useResource } from '../../ui/resource.js';
import { ShownOnce } from '../../ui/shown-once.js';
import { ConfirmButton } from '../confirm-button.js';
import { Time } from '../time.js';
import { Deliveries } from './deliveries.js';
import { webhooks, type Webhook } from './requests.js';

/** One webhook: what it subscribes to, switching it on and off, a new secret, deleting it, and its deliveries. */
export function WebhookDetail({ webhookId }: { webhookId: string }) {
  const [webhook, reload] = useResource((signal) => webhooks.get(webhookId, signal), [webhookId]);
  return (
    <section aria-labelledby="webhook-title">
      <div class="section-head">
        <h1 id="webhook-title" tabIndex={-1}>
          Webhook
        </h1>
        <a href={hrefOf({ name: 'webhooks' })}>All webhooks</a>
      </div>
      <Loaded resource={webhook} what="the webhook" onRetry={reload}>
        {(data) => <WebhookPanel webhook={data} />}
      </Loaded>
    </section>
  );
}

function WebhookPanel({ webhook: initial }: { webhook: Webhook }) {
  const [webhook, setWebhook] = useState(initial);
  const [secret, setSecret] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [switching, setSwitching] = useState(false);

  useEffect(() => {
    if (secret) document.querySelector<HTMLElement>('.shown-once h2')?.focus();
  }, [secret]);

  const toggle = async () => {
    setSwitching(true);
    setProblem(null);
    try {
      const updated = await webhooks.update(webhook.id, { enabled: !webhook.enabled });
      setWebhook(updated);
      setStatus(updated.enabled ? 'Webhook enabled: new events are sent.' : 'Webhook disabled: nothing more is sent.');
    } catch (caught) {
      setProblem(messageOf(caught));
    } finally {
      setSwitching(false);
    }
  };

  return (
    <>
      <p class="webhook-url">
        <code>{webhook.url}</code>{' '}
        <span class={`status status-${webhook.enabled ? 'active' : 'inactive'}`}>
          {webhook.enabled ? 'enabled' : 'disabled'}
        </span>
      </p>
      <dl class="facts">
        <dt>Id</dt>
        <dd>
          <code>{webhook.id}</code>
        </dd>
        <dt>Events</dt>
        <dd>
          {webhook.events.map((type) => (
            <code class="event-type">{type}</code>
          ))}
        </dd>
        {webhook.description && (
          <>
            <dt>Description</dt>
            <dd>{webhook.description}</dd>
          </>
        )}
        <dt>Created</dt>
        <dd>
          <Time value={webhook.createdAt} />
        </dd>
      </dl>
      <div class="actions">
        <button type="button" class="secondary" disabled={switching} onClick={toggle}>
          {webhook.enabled ? 'Disable' : 'Enable'}
        </button>
        <ConfirmButton
          label="Rotate secret"
          title="Replace the signing secret?"
          text="Every attempt from now on is signed with a new secret, shown once; the old one stops verifying."
          confirmLabel="Rotate secret"
          busyLabel="Rotating…"
          onConfirm={async () => {
            const rotated = await webhooks.rotateSecret(webhook.id);
            setSecret(rotated.secret);
            setStatus('The secret was replaced.');
          }}
        />
        <ConfirmButton
          label="Delete webhook"
          title="Delete this webhook?"
          text="It and its delivery log are removed, and nothing more is sent to it. This cannot be undone."
          confirmLabel="Delete for good"
          busyLabel="Deleting…"
          danger
          onConfirm={async () => {
            await webhooks.remove(webhook.id);
            navigate({ name: 'webhooks' });
          }}
        />
      </div>
      <p role="status">{status}</p>
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      {secret && <ShownOnce label="New signing secret" value={secret} onDone={() => setSecret(null)} />}
      <Deliveries webhookId={webhook.id} />
    </>
  );
}
