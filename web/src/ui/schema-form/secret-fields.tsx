import { Field, fieldId, GroupErrors, groupProps } from '../../fields.js';
import { kindOf, labelOf, pointerOf, resolve, type JsonSchema } from './json-schema.js';
import { ListEditor } from './list-editor.js';

/**
 * Write-only values (plugin and platform secrets): the server never sends
 * them back, only a mask ("••••" and the last four characters). A stored
 * secret shows its mask; typing replaces it, leaving it empty keeps it.
 */
export interface SecretRow {
  name: string;
  /** A new value typed in; empty keeps the stored one. */
  value: string;
  /** The masked value the server gave, when the secret is stored. */
  masked: string | null;
}

/** Rows for every secret the schema names, and for every stored one. */
export function secretRowsOf(schema: JsonSchema, stored: Record<string, string>): SecretRow[] {
  const named = Object.keys(resolve(schema).properties ?? {});
  const names = [...named, ...Object.keys(stored).filter((name) => !named.includes(name))];
  return names.map((name) => ({ name, value: '', masked: stored[name] ?? null }));
}

/**
 * The secrets to send: a typed value replaces the stored one; an untouched
 * stored secret is sent back as its mask, which keeps it (a list of secrets
 * replaces the old list, so leaving one out would delete it).
 */
export function secretsOf(rows: SecretRow[]): Record<string, string> {
  const secrets: Record<string, string> = {};
  for (const row of rows) {
    const name = row.name.trim();
    const value = row.value !== '' ? row.value : row.masked;
    if (name && value) secrets[name] = value;
  }
  return secrets;
}

/** Whether the schema names its secrets (one field each) or takes any name (a list of name and value). */
const namesAreFixed = (schema: JsonSchema) => kindOf(schema) === 'object';

interface Props {
  schema: JsonSchema;
  rows: SecretRow[];
  onChange: (rows: SecretRow[]) => void;
  pointer: string;
  errors: Map<string, string[]>;
}

export function SecretFields({ schema, rows, onChange, pointer, errors }: Props) {
  const resolved = resolve(schema);
  const id = fieldId(pointer);
  const own = errors.get(pointer);
  const update = (index: number, row: SecretRow) => onChange(rows.map((old, at) => (at === index ? row : old)));
  const hintOf = (row: SecretRow, description: string | undefined) =>
    [
      description,
      row.masked ? `Stored as ${row.masked}: type a new value to replace it, or leave empty to keep it.` : '',
    ]
      .filter(Boolean)
      .join(' ') || undefined;
  const valueInput = (row: SecretRow, index: number, control: object) => (
    <input
      {...control}
      type="password"
      autoComplete="new-password"
      placeholder={row.masked ?? ''}
      value={row.value}
      onInput={(event) => update(index, { ...row, value: event.currentTarget.value })}
    />
  );

  if (namesAreFixed(resolved)) {
    if (rows.length === 0) return null;
    const required = new Set(resolved.required ?? []);
    return (
      <fieldset id={id} class="secrets" {...groupProps(id, own)}>
        <legend>Secrets</legend>
        <GroupErrors id={id} errors={own} />
        {rows.map((row, index) => {
          const property = resolved.properties?.[row.name];
          return (
            <Field
              pointer={pointerOf(pointer, row.name)}
              label={labelOf(row.name)}
              errors={errors.get(pointerOf(pointer, row.name))}
              hint={hintOf(row, property?.description)}
              required={required.has(row.name) && !row.masked}
            >
              {(control) => valueInput(row, index, control)}
            </Field>
          );
        })}
      </fieldset>
    );
  }

  return (
    <ListEditor<SecretRow>
      id={id}
      legend="Secrets"
      hint={resolved.description}
      items={rows}
      onChange={onChange}
      blank={() => ({ name: '', value: '', masked: null })}
      itemName={(index) => `Secret ${index + 1}`}
      errors={own}
      renderItem={(row, index) => {
        const secretPointer = pointerOf(pointer, row.name.trim());
        return (
          <div class="secret-row">
            <Field pointer={secretPointer} id={`${id}-${index}-name`} label="Secret name" errors={undefined}>
              {(control) => (
                <input
                  {...control}
                  type="text"
                  value={row.name}
                  // A stored secret is known by its name: renaming it would need its value, which the form has not.
                  readOnly={row.masked !== null}
                  onInput={(event) => update(index, { ...row, name: event.currentTarget.value })}
                />
              )}
            </Field>
            <Field
              pointer={secretPointer}
              id={`${id}-${index}-value`}
              label={row.name.trim() ? `Value of ${row.name.trim()}` : 'Secret value'}
              errors={errors.get(secretPointer)}
              hint={hintOf(row, undefined)}
            >
              {(control) => valueInput(row, index, control)}
            </Field>
          </div>
        );
      }}
    />
  );
}
