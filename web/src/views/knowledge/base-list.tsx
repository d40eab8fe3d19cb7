import { useState } from 'preact/hooks';
import { Field, assignErrors } from '../../fields.js';
import { ApiError } from '../../api.js';
import { hrefOf, navigate } from '../../route.js';
import { Loaded, messageOf, useResource } from '../../ui/resource.js';
import { knowledgeApi } from './requests.js';

/** The account's knowledge bases, and a form to create one (which then opens). */
export function KnowledgeBaseList() {
  const [bases, reload] = useResource((signal) => knowledgeApi.list(signal), []);
  return (
    <section aria-labelledby="knowledge-title">
      <h1 id="knowledge-title" tabIndex={-1}>
        Knowledge
      </h1>
      <p class="hint">
        Documents an agent's replies draw on and cite. Give a base to an agent in its Edit tab, under “Knowledge bases”.
      </p>
      <Loaded
        resource={bases}
        what="knowledge bases"
        onRetry={reload}
        isEmpty={(list) => list.data.length === 0}
        empty={<p>No knowledge bases yet: create the first one below.</p>}
      >
        {(list) => (
          <table class="knowledge-bases">
            <caption>Knowledge bases ({list.pagination.total})</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Description</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((base) => (
                <tr key={base.id}>
                  <th scope="row">
                    <a href={hrefOf({ name: 'knowledge', knowledgeBaseId: base.id })}>{base.name}</a>
                  </th>
                  <td data-label="Description">{base.description ?? ''}</td>
                  <td data-label="Created">{new Date(base.createdAt).toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Loaded>
      <CreateKnowledgeBase />
    </section>
  );
}

function CreateKnowledgeBase() {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<Map<string, string[]>>(new Map());
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setSaving(true);
    setProblem(null);
    setErrors(new Map());
    try {
      const base = await knowledgeApi.create({
        name: name.trim(),
        ...(description.trim() ? { description: description.trim() } : {}),
      });
      navigate({ name: 'knowledge', knowledgeBaseId: base.id });
    } catch (caught) {
      if (caught instanceof ApiError && caught.fieldErrors.length > 0) {
        const { byField, unplaced } = assignErrors(caught.fieldErrors, ['/name', '/description']);
        setErrors(byField);
        setProblem(unplaced.length > 0 ? caught.message : null);
      } else {
        setProblem(messageOf(caught));
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <form class="card" aria-labelledby="create-base-title" onSubmit={submit}>
      <h2 id="create-base-title">Create a knowledge base</h2>
      <Field pointer="/name" label="Name" errors={errors.get('/name')}>
        {(props) => (
          <input
            {...props}
            type="text"
            required
            maxLength={100}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        )}
      </Field>
      <Field pointer="/description" label="Description (optional)" errors={errors.get('/description')}>
        {(props) => (
          <textarea
            {...props}
            rows={2}
            maxLength={2000}
            value={description}
            onInput={(e) => setDescription(e.currentTarget.value)}
          />
        )}
      </Field>
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      <div class="actions">
        <button type="submit" disabled={saving}>
          {saving ? 'Creating…' : 'Create knowledge base'}
        </button>
      </div>
    </form>
  );
}
