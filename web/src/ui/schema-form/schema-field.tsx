import { Field, fieldId, GroupErrors, groupProps, type ControlProps } from '../../fields.js';
import {
  boundsOf,
  draftOf,
  kindOf,
  labelOf,
  pointerOf,
  resolve,
  valueSchemaOf,
  type Draft,
  type JsonSchema,
  type Pair,
} from './json-schema.js';
import { ListEditor } from './list-editor.js';

export interface SchemaFieldProps {
  schema: JsonSchema;
  draft: Draft;
  onChange: (draft: Draft) => void;
  /** The JSON pointer of this value in the request body: where the server's errors for it point. */
  pointer: string;
  /** The element id; defaults to one made from the pointer. */
  id?: string;
  label: string;
  required?: boolean;
  errors: Map<string, string[]>;
}

const singular = (label: string) => (/[^s]s$/.test(label) ? label.slice(0, -1) : `${label} item`);

/**
 * One value of a JSON Schema as form controls: objects as fieldsets of their
 * properties, lists and maps as editors of their items, enums as selects,
 * numbers and texts as inputs, booleans as checkboxes, anything else as JSON.
 */
export function SchemaField(props: SchemaFieldProps) {
  const { schema, draft, onChange, pointer, label, required, errors } = props;
  const id = props.id ?? fieldId(pointer);
  const resolved = resolve(schema);
  const hint = `${resolved.description ?? ''}${boundsOf(schema)}`.trim() || undefined;
  const own = errors.get(pointer);

  switch (kindOf(schema)) {
    case 'object': {
      const record = draft as Record<string, Draft>;
      const requiredNames = new Set(resolved.required ?? []);
      const properties = Object.entries(resolved.properties ?? {});
      return (
        <fieldset id={id} class="schema-object" {...groupProps(id, own)}>
          <legend>{label}</legend>
          {hint && <p class="hint">{hint}</p>}
          <GroupErrors id={id} errors={own} />
          {properties.length === 0 && <p class="hint">Nothing to set.</p>}
          {properties.map(([name, property]) => (
            <SchemaField
              schema={property}
              draft={record[name] ?? draftOf(property, undefined)}
              onChange={(value) => onChange({ ...record, [name]: value })}
              pointer={pointerOf(pointer, name)}
              label={labelOf(name)}
              required={requiredNames.has(name)}
              errors={errors}
            />
          ))}
        </fieldset>
      );
    }
    case 'array': {
      const items = resolve(resolved.items ?? {});
      const itemLabel = singular(label);
      return (
        <ListEditor<Draft>
          id={id}
          legend={label}
          hint={hint}
          required={required}
          items={draft as Draft[]}
          onChange={onChange}
          blank={() => draftOf(items, undefined)}
          itemName={(index) => `${itemLabel} ${index + 1}`}
          errors={own}
          grouped={['object', 'array', 'map'].includes(kindOf(items))}
          renderItem={(item, index, update) => (
            <SchemaField
              schema={items}
              draft={item}
              onChange={update}
              pointer={pointerOf(pointer, index)}
              label={`${itemLabel} ${index + 1}`}
              errors={errors}
            />
          )}
        />
      );
    }
    case 'map': {
      const values = valueSchemaOf(resolved);
      return (
        <ListEditor<Pair>
          id={id}
          legend={label}
          hint={hint}
          required={required}
          items={draft as Pair[]}
          onChange={onChange}
          blank={() => ({ key: '', value: draftOf(values, undefined) })}
          itemName={(index) => `${label} entry ${index + 1}`}
          errors={own}
          renderItem={(pair, index, update) => {
            const entryPointer = pointerOf(pointer, pair.key.trim());
            return (
              <>
                <Field pointer={entryPointer} id={`${id}-${index}-key`} label="Key" errors={undefined}>
                  {(control) => (
                    <input
                      {...control}
                      type="text"
                      value={pair.key}
                      onInput={(event) => update({ ...pair, key: event.currentTarget.value })}
                    />
                  )}
                </Field>
                <SchemaField
                  schema={values}
                  draft={pair.value}
                  onChange={(value) => update({ ...pair, value })}
                  pointer={entryPointer}
                  id={`${id}-${index}-value`}
                  label={pair.key.trim() ? `Value of ${pair.key.trim()}` : 'Value'}
                  errors={errors}
                />
              </>
            );
          }}
        />
      );
    }
    case 'boolean':
      return (
        <div class="check">
          <input
            id={id}
            type="checkbox"
            checked={draft === true}
            aria-describedby={
              [hint ? `${id}-hint` : '', own ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined
            }
            aria-invalid={own ? 'true' : undefined}
            onChange={(event) => onChange(event.currentTarget.checked)}
          />
          <label for={id}>{label}</label>
          {hint && (
            <p id={`${id}-hint`} class="hint">
              {hint}
            </p>
          )}
          <GroupErrors id={id} errors={own} />
        </div>
      );
    default:
      return (
        <Field pointer={pointer} id={id} label={label} errors={own} hint={hint} required={required}>
          {(control) => <Control {...props} control={control} />}
        </Field>
      );
  }
}

function Control({ schema, draft, onChange, required, control }: SchemaFieldProps & { control: ControlProps }) {
  const resolved = resolve(schema);
  const text = String(draft);
  const onInput = (event: { currentTarget: { value: string } }) => onChange(event.currentTarget.value);
  switch (kindOf(schema)) {
    case 'enum': {
      const choices = (resolved.enum ?? []).map(String);
      return (
        <select {...control} value={text} onChange={onInput}>
          {(!required || !choices.includes(text)) && <option value="">(not set)</option>}
          {choices.map((choice) => (
            <option value={choice}>{choice}</option>
          ))}
        </select>
      );
    }
    case 'number':
      return (
        <input
          {...control}
          type="text"
          inputMode={resolved.type === 'integer' ? 'numeric' : 'decimal'}
          value={text}
          onInput={onInput}
        />
      );
    case 'string':
      return <input {...control} type="text" value={text} onInput={onInput} />;
    default:
      // Long texts, and JSON for what has no controls of its own.
      return <textarea {...control} rows={kindOf(schema) === 'json' ? 4 : 6} value={text} onInput={onInput} />;
  }
}
