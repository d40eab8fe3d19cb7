import { useState } from 'preact/hooks';
import { Field, fieldId } from '../../fields.js';
import { Loaded, useResource } from '../../ui/resource.js';
import { loadCatalog } from '../catalog.js';
import { formProblem } from '../form-problem.js';
import { apiKeys, type CreateApiKeyBody, type CreatedApiKey } from './requests.js';

const pointers = ['/name', '/scopes'];

/** A new key: a name to recognise it by and its scopes, as checkboxes from the list the API publishes. */
export function CreateKeyForm({
  onCreated,
  onCancel,
}: {
  onCreated: (created: CreatedApiKey) => void;
  onCancel: () => void;
}) {
  const [catalog, reloadCatalog] = useResource(() => loadCatalog(), []);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const [errors, setErrors] = useState<Map<string, string[]>>(new Map());
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setSaving(true);
    setProblem(null);
    setErrors(new Map());
    try {
      const body = { scopes, ...(name.trim() ? { name: name.trim() } : {}) } as CreateApiKeyBody;
      onCreated(await apiKeys.create(body));
    } catch (caught) {
      const { byField, message } = formProblem(caught, pointers, ['/scopes']);
      setErrors(byField);
      setProblem(message);
    } finally {
      setSaving(false);
    }
  };

  const scopeErrors = errors.get('/scopes');
  return (
    <form onSubmit={submit} noValidate aria-labelledby="new-key-title">
      <h2 id="new-key-title">New API key</h2>
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      <Field pointer="/name" label="Name" errors={errors.get('/name')} hint="To recognise the key in this list.">
        {(props) => <input {...props} autoFocus value={name} onInput={(event) => setName(event.currentTarget.value)} />}
      </Field>
      <fieldset aria-describedby={scopeErrors ? `${fieldId('/scopes')}-error` : undefined}>
        <legend>Scopes</legend>
        <p class="hint">A key can only grant scopes the key you signed in with holds.</p>
        <Loaded resource={catalog} what="the scopes" onRetry={reloadCatalog}>
          {(data) =>
            data.scopes.map((scope, index) => (
              <div class="check">
                <input
                  id={`${fieldId('/scopes')}-${index}`}
                  type="checkbox"
                  checked={scopes.includes(scope)}
                  onChange={(event) => {
                    const checked = event.currentTarget.checked;
                    setScopes((current) =>
                      checked ? [...current, scope] : current.filter((other) => other !== scope),
                    );
                  }}
                />
                <label for={`${fieldId('/scopes')}-${index}`}>
                  <code>{scope}</code>
                </label>
              </div>
            ))
          }
        </Loaded>
        {scopeErrors && (
          <p id={`${fieldId('/scopes')}-error`} class="field-error">
            {scopeErrors.join('; ')}
          </p>
        )}
      </fieldset>
      <div class="actions">
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" disabled={saving}>
          {saving ? 'Creating…' : 'Create key'}
        </button>
      </div>
    </form>
  );
}
