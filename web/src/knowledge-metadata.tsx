import type { KnowledgeRow, MetadataRow } from './agent-body.js';
import { Field, fieldId } from './fields.js';
import { ListEditor } from './ui/schema-form/index.js';

/** `/knowledge/2/content` is the content of the third item, as the form shows it. */
export function knowledgePointers(rows: KnowledgeRow[]): string[] {
  return ['/knowledge', ...rows.flatMap((_row, index) => [`/knowledge/${index}`, `/knowledge/${index}/title`])];
}

export function metadataPointers(rows: MetadataRow[]): string[] {
  return ['/metadata', ...rows.map((row) => `/metadata/${row.key.trim()}`)];
}

interface Props<T> {
  rows: T[];
  errors: Map<string, string[]>;
  onChange: (rows: T[]) => void;
}

/**
 * The agent's own knowledge, one item each: a text, with a title when it
 * helps. An error about an item (or its content) shows at its content.
 */
export function KnowledgeEditor({ rows, errors, onChange }: Props<KnowledgeRow>) {
  return (
    <ListEditor<KnowledgeRow>
      id={fieldId('/knowledge')}
      legend="Knowledge"
      hint="Texts the agent retrieves from when it answers; up to 100 items."
      items={rows}
      onChange={onChange}
      blank={() => ({ title: '', content: '' })}
      itemName={(index) => `Knowledge item ${index + 1}`}
      errors={errors.get('/knowledge')}
      renderItem={(row, index, update) => (
        <>
          <Field
            pointer={`/knowledge/${index}/title`}
            label={`Title of item ${index + 1}`}
            errors={errors.get(`/knowledge/${index}/title`)}
            hint="Optional."
          >
            {(props) => (
              <input
                {...props}
                type="text"
                value={row.title}
                onInput={(event) => update({ ...row, title: event.currentTarget.value })}
              />
            )}
          </Field>
          <Field
            pointer={`/knowledge/${index}`}
            label={`Content of item ${index + 1}`}
            errors={errors.get(`/knowledge/${index}`)}
          >
            {(props) => (
              <textarea
                {...props}
                rows={3}
                value={row.content}
                onInput={(event) => update({ ...row, content: event.currentTarget.value })}
              />
            )}
          </Field>
        </>
      )}
    />
  );
}

/** Metadata: string values by key, up to 50. */
export function MetadataEditor({ rows, errors, onChange }: Props<MetadataRow>) {
  const id = fieldId('/metadata');
  return (
    <ListEditor<MetadataRow>
      id={id}
      legend="Metadata"
      hint="Labels of your own (team, region…): up to 50 keys with text values."
      items={rows}
      onChange={onChange}
      blank={() => ({ key: '', value: '' })}
      itemName={(index) => `Metadata entry ${index + 1}`}
      errors={errors.get('/metadata')}
      renderItem={(row, index, update) => (
        <div class="pair-row">
          <Field pointer={`/metadata/${row.key.trim()}`} id={`${id}-${index}-key`} label="Key" errors={undefined}>
            {(props) => (
              <input
                {...props}
                type="text"
                value={row.key}
                onInput={(event) => update({ ...row, key: event.currentTarget.value })}
              />
            )}
          </Field>
          <Field
            pointer={`/metadata/${row.key.trim()}`}
            id={`${id}-${index}-value`}
            label={row.key.trim() ? `Value of ${row.key.trim()}` : 'Value'}
            errors={errors.get(`/metadata/${row.key.trim()}`)}
          >
            {(props) => (
              <input
                {...props}
                type="text"
                value={row.value}
                onInput={(event) => update({ ...row, value: event.currentTarget.value })}
              />
            )}
          </Field>
        </div>
      )}
    />
  );
}
