import type { ExtensionRow, SecretRow } from './agent-body.js';
import { Field, fieldId } from './fields.js';

interface Props {
  kind: 'plugins' | 'platforms';
  rows: ExtensionRow[];
  errors: Map<string, string[]>;
  onChange: (rows: ExtensionRow[]) => void;
}

/**
 * The plugins or platforms of an agent: name, enabled, JSON settings and
 * secrets. A stored secret shows only its masked value; typing a new value
 * replaces it, leaving it empty keeps it.
 */
export function ExtensionRows({ kind, rows, errors, onChange }: Props) {
  const singular = kind === 'plugins' ? 'Plugin' : 'Platform';
  const nameField = kind === 'plugins' ? 'name' : 'type';
  const jsonField = kind === 'plugins' ? 'config' : 'settings';
  const update = (index: number, change: Partial<ExtensionRow>) =>
    onChange(rows.map((row, at) => (at === index ? { ...row, ...change } : row)));
  const updateSecret = (index: number, secretIndex: number, change: Partial<SecretRow>) =>
    update(index, {
      secrets: (rows[index]?.secrets ?? []).map((secret, at) =>
        at === secretIndex ? { ...secret, ...change } : secret,
      ),
    });

  return (
    <fieldset>
      <legend>{kind === 'plugins' ? 'Plugins' : 'Platforms'}</legend>
      {errors.get(`/${kind}`) && <p class="field-error">{errors.get(`/${kind}`)?.join('; ')}</p>}
      {rows.length === 0 && <p class="hint">None.</p>}
      {rows.map((row, index) => {
        const base = `/${kind}/${index}`;
        const secretsPointer = `${base}/secrets`;
        const secretErrors = errors.get(secretsPointer);
        return (
          <div class="extension" role="group" aria-label={`${singular} ${index + 1}`}>
            {errors.get(base) && <p class="field-error">{errors.get(base)?.join('; ')}</p>}
            <Field
              pointer={`${base}/${nameField}`}
              label={kind === 'plugins' ? 'Plugin name' : 'Platform type'}
              errors={errors.get(`${base}/${nameField}`)}
              hint={kind === 'plugins' ? 'e.g. math, clock, http, knowledge, mcp' : 'e.g. telegram, discord, slack'}
            >
              {(props) => (
                <input
                  {...props}
                  type="text"
                  value={row.name}
                  onInput={(event) => update(index, { name: event.currentTarget.value })}
                />
              )}
            </Field>
            <div class="check">
              <input
                id={fieldId(`${base}/enabled`)}
                type="checkbox"
                checked={row.enabled}
                onChange={(event) => update(index, { enabled: event.currentTarget.checked })}
              />
              <label for={fieldId(`${base}/enabled`)}>Enabled</label>
            </div>
            <Field
              pointer={`${base}/${jsonField}`}
              label={kind === 'plugins' ? 'Config (JSON)' : 'Settings (JSON)'}
              errors={errors.get(`${base}/${jsonField}`)}
            >
              {(props) => (
                <textarea
                  {...props}
                  rows={3}
                  value={row.json}
                  onInput={(event) => update(index, { json: event.currentTarget.value })}
                />
              )}
            </Field>
            <fieldset
              class="secrets"
              aria-invalid={secretErrors ? 'true' : undefined}
              aria-describedby={secretErrors ? `${fieldId(secretsPointer)}-error` : undefined}
              tabIndex={secretErrors ? -1 : undefined}
            >
              <legend>Secrets</legend>
              {secretErrors && (
                <p id={`${fieldId(secretsPointer)}-error`} class="field-error">
                  {secretErrors.join('; ')}
                </p>
              )}
              {row.secrets.map((secret, secretIndex) => {
                const id = `${fieldId(secretsPointer)}-${secretIndex}`;
                return (
                  <div class="secret-row">
                    <div class="field">
                      <label for={`${id}-name`}>Secret name</label>
                      <input
                        id={`${id}-name`}
                        type="text"
                        value={secret.name}
                        readOnly={secret.masked !== null}
                        onInput={(event) => updateSecret(index, secretIndex, { name: event.currentTarget.value })}
                      />
                    </div>
                    <div class="field">
                      <label for={`${id}-value`}>
                        {secret.masked ? `New value (stored: ${secret.masked})` : 'Value'}
                      </label>
                      <input
                        id={`${id}-value`}
                        type="password"
                        autoComplete="off"
                        placeholder={secret.masked ? 'Leave empty to keep' : ''}
                        value={secret.value}
                        onInput={(event) => updateSecret(index, secretIndex, { value: event.currentTarget.value })}
                      />
                    </div>
                    <button
                      type="button"
                      class="secondary"
                      onClick={() =>
                        update(index, { secrets: row.secrets.filter((_secret, at) => at !== secretIndex) })
                      }
                    >
                      Remove secret {secret.name}
                    </button>
                  </div>
                );
              })}
              <button
                type="button"
                class="secondary"
                onClick={() => update(index, { secrets: [...row.secrets, { name: '', value: '', masked: null }] })}
              >
                Add secret
              </button>
            </fieldset>
            <button type="button" class="secondary" onClick={() => onChange(rows.filter((_row, at) => at !== index))}>
              Remove {singular.toLowerCase()} {row.name || index + 1}
            </button>
          </div>
        );
      })}
      <button
        type="button"
        class="secondary"
        onClick={() => onChange([...rows, { name: '', enabled: true, json: '{}', secrets: [] }])}
      >
        Add {singular.toLowerCase()}
      </button>
    </fieldset>
  );
}
