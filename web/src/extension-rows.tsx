import { useEffect, useRef } from 'preact/hooks';
import { newExtensionRow, type ExtensionRow } from './agent-body.js';
import { kindIn, type ExtensionKind } from './extension-catalog.js';
import { Field, fieldId, GroupErrors } from './fields.js';
import { pointersOf, SchemaField, SecretFields, type JsonSchema } from './ui/schema-form/index.js';

type Kind = 'plugins' | 'platforms';

const words = (kind: Kind) =>
  kind === 'plugins'
    ? { title: 'Plugins', one: 'plugin', nameField: 'name', settingsField: 'config', settingsLabel: 'Config' }
    : { title: 'Platforms', one: 'platform', nameField: 'type', settingsField: 'settings', settingsLabel: 'Settings' };

/** Every pointer the entries show a control for, so the server's errors find their field. */
export function extensionPointers(kind: Kind, rows: ExtensionRow[], kinds: ExtensionKind[]): string[] {
  const { nameField, settingsField } = words(kind);
  return rows.flatMap((row, index) => {
    const base = `/${kind}/${index}`;
    const entryKind = kindIn(kinds, row.name);
    return [
      base,
      `${base}/${nameField}`,
      `${base}/enabled`,
      ...pointersOf(entryKind.settingsSchema, row.settings, `${base}/${settingsField}`),
      `${base}/secrets`,
      ...row.secrets.map((secret) => `${base}/secrets/${secret.name.trim()}`),
    ];
  });
}

interface Props {
  kind: Kind;
  /** What the server offers (GET /v1/plugins or GET /v1/platforms). */
  kinds: ExtensionKind[];
  rows: ExtensionRow[];
  errors: Map<string, string[]>;
  onChange: (rows: ExtensionRow[]) => void;
}

/**
 * The plugins or platforms of an agent: each entry's kind picked from what
 * the server offers, its settings edited through the form its JSON Schema
 * describes (defaults filled in), its secrets write-only.
 */
export function ExtensionRows({ kind, kinds, rows, errors, onChange }: Props) {
  const { title, one, nameField, settingsField, settingsLabel } = words(kind);
  const added = useRef(false);
  useEffect(() => {
    if (!added.current) return;
    added.current = false;
    document.getElementById(fieldId(`/${kind}/${rows.length - 1}/${nameField}`))?.focus();
  }, [rows.length]);
  const update = (index: number, row: ExtensionRow) => onChange(rows.map((old, at) => (at === index ? row : old)));

  return (
    <fieldset id={fieldId(`/${kind}`)}>
      <legend>{title}</legend>
      <GroupErrors id={fieldId(`/${kind}`)} errors={errors.get(`/${kind}`)} />
      {rows.length === 0 && <p class="hint">None.</p>}
      {rows.map((row, index) => {
        const base = `/${kind}/${index}`;
        const entryKind = kindIn(kinds, row.name);
        const offered = kinds.some((candidate) => candidate.name === row.name);
        const entryName = `${one.charAt(0).toUpperCase()}${one.slice(1)} ${index + 1}${row.name ? ` (${row.name})` : ''}`;
        return (
          <div class="extension" role="group" aria-label={entryName}>
            <GroupErrors id={fieldId(base)} errors={errors.get(base)} />
            <Field
              pointer={`${base}/${nameField}`}
              label={kind === 'plugins' ? 'Plugin' : 'Platform'}
              errors={errors.get(`${base}/${nameField}`)}
              hint={entryKind.description || undefined}
              required
            >
              {(props) => (
                <select
                  {...props}
                  value={row.name}
                  // Another kind takes other settings: the entry starts again from the new kind's defaults.
                  onChange={(event) =>
                    update(index, {
                      ...newExtensionRow(kindIn(kinds, event.currentTarget.value)),
                      enabled: row.enabled,
                    })
                  }
                >
                  {row.name === '' && <option value="">Choose a {one}</option>}
                  {!offered && row.name !== '' && (
                    <option value={row.name}>{row.name} (not offered by this server)</option>
                  )}
                  {kinds.map((candidate) => (
                    <option value={candidate.name}>{candidate.name}</option>
                  ))}
                </select>
              )}
            </Field>
            <div class="check">
              <input
                id={fieldId(`${base}/enabled`)}
                type="checkbox"
                checked={row.enabled}
                onChange={(event) => update(index, { ...row, enabled: event.currentTarget.checked })}
              />
              <label for={fieldId(`${base}/enabled`)}>Enabled</label>
            </div>
            {row.name !== '' && (
              <>
                <SchemaField
                  schema={entryKind.settingsSchema as JsonSchema}
                  draft={row.settings}
                  onChange={(settings) => update(index, { ...row, settings })}
                  pointer={`${base}/${settingsField}`}
                  label={offered ? settingsLabel : `${settingsLabel} (JSON)`}
                  errors={errors}
                />
                <SecretFields
                  schema={entryKind.secretsSchema}
                  rows={row.secrets}
                  onChange={(secrets) => update(index, { ...row, secrets })}
                  pointer={`${base}/secrets`}
                  errors={errors}
                />
              </>
            )}
            <button
              type="button"
              class="secondary"
              onClick={() => {
                onChange(rows.filter((_row, at) => at !== index));
                document.getElementById(`add-${one}`)?.focus();
              }}
            >
              Remove {one} {row.name || index + 1}
            </button>
          </div>
        );
      })}
      <button
        id={`add-${one}`}
        type="button"
        class="secondary"
        onClick={() => {
          added.current = true;
          onChange([...rows, newExtensionRow(null)]);
        }}
      >
        Add {one}
      </button>
    </fieldset>
  );
}
