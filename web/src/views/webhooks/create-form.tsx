import { useState } from 'preact/hooks';
import { Field, fieldId } from '../../fields.js';
import { Loaded, useResource } from '../../ui/resource.js';
import { loadCatalog } from '../catalog.js';
import { formProblem } from '../form-problem.js';
import { webhooks, type CreatedWebhook } from './requests.js';

const pointers = ['/url', '/description', '/events'];

/**
 * A new webhook: where to send, which events (checkboxes from the catalog
 * the API publishes, each with what it means) and an optional description.
 * The server's field errors appear at their fields.
 */
export function CreateWebhookForm({
  onCreated,
  onCancel,
}: {
  onCreated: (created: CreatedWebhook) => void;
  onCancel: () => void;
}) {
  const [catalog, reloadCatalog] = useResource(() => loadCatalog(), []);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [errors, setErrors] = useState<Map<string, string[]>>(new Map());
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setSaving(true);
    setProblem(null);
    setErrors(new Map());
    try {
      const body = { url: url.trim(), events, ...(description.trim() ? { description: description.trim() } : {}) };
      onCreated(await webhooks.create(body as Parameters<typeof webhooks.create>[0]));
    } catch (caught) {
      const { byField, message } = formProblem(caught, pointers, ['/events']);
      setErrors(byField);
      setProblem(message);
    } finally {
      setSaving(false);
    }
  };

  const toggle = (type: string, checked: boolean) =>
    setEvents((current) => (checked ? [...current, type] : current.filter((other) => other !== type)));
  const eventErrors = errors.get('/events');

  return (
    <form onSubmit={submit} noValidate aria-labelledby="new-webhook-title">
      <h2 id="new-webhook-title">New webhook</h2>
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      <Field
        pointer="/url"
        label="URL"
        errors={errors.get('/url')}
        hint="Events are POSTed here, signed with the secret shown once after creating."
      >
        {(props) => (
          <input
            {...props}
            type="url"
            required
            autoFocus
            value={url}
            placeholder="https://example.com/hooks/agentd"
            onInput={(event) => setUrl(event.currentTarget.value)}
          />
        )}
      </Field>
      <Field pointer="/description" label="Description (optional)" errors={errors.get('/description')}>
        {(props) => (
          <input {...props} value={description} onInput={(event) => setDescription(event.currentTarget.value)} />
        )}
      </Field>
      <fieldset aria-describedby={eventErrors ? `${fieldId('/events')}-error` : undefined}>
        <legend>Events</legend>
        <Loaded resource={catalog} what="the event types" onRetry={reloadCatalog}>
          {({ eventTypes }) =>
            eventTypes.map(({ type, description: about }, index) => (
              <div class="check event-choice">
                <input
                  id={`${fieldId('/events')}-${index}`}
                  type="checkbox"
                  checked={events.includes(type)}
                  aria-describedby={`${fieldId('/events')}-${index}-about`}
                  onChange={(event) => toggle(type, event.currentTarget.checked)}
                />
                <label for={`${fieldId('/events')}-${index}`}>
                  <code>{type}</code>
                </label>
                <span id={`${fieldId('/events')}-${index}-about`} class="hint">
                  {about}
                </span>
              </div>
            ))
          }
        </Loaded>
        {eventErrors && (
          <p id={`${fieldId('/events')}-error`} class="field-error">
            {eventErrors.join('; ')}
          </p>
        )}
      </fieldset>
      <div class="actions">
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" disabled={saving}>
          {saving ? 'Creating…' : 'Create webhook'}
        </button>
      </div>
    </form>
  );
}
