import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, type Agent } from './api.js';
import {
  createBody,
  emptyForm,
  formOf,
  FormErrors,
  patchBody,
  type AgentFormState,
  type FieldError,
} from './agent-body.js';
import { loadCatalog, type ExtensionCatalog } from './extension-catalog.js';
import { assignErrors, Field, fieldId } from './fields.js';
import { extensionPointers, ExtensionRows } from './extension-rows.js';
import { KnowledgeEditor, knowledgePointers, MetadataEditor, metadataPointers } from './knowledge-metadata.js';
import { Loaded, useResource } from './ui/resource.js';
import { knowledgeApi, type KnowledgeBase } from './views/knowledge/requests.js';
import { AgentSettings, settingsPointers } from './agent-settings.js';

const statusOptions = ['active', 'inactive'];

/** Every pointer the form has a field for; errors under other pointers are listed above the form. */
function pointersOf(form: AgentFormState, catalog: ExtensionCatalog): string[] {
  return [
    '/name',
    '/status',
    '/bio',
    '/personality/traits',
    '/personality/style',
    '/personality/tone',
    '/system',
    '/expertise',
    '/goals/objectives',
    '/goals/motivations',
    ...knowledgePointers(form.knowledge),
    ...metadataPointers(form.metadata),
    '/deletionProtection',
    ...settingsPointers,
    '/model',
    '/model/provider',
    '/model/name',
    '/model/temperature',
    '/model/maxOutputTokens',
    '/model/topP',
    '/model/maxSteps',
    '/model/apiKey',
    '/plugins',
    '/platforms',
    ...extensionPointers('plugins', form.plugins, catalog.plugins),
    ...extensionPointers('platforms', form.platforms, catalog.platforms),
  ];
}

interface Props {
  agent: Agent | null;
  onSaved: (agent: Agent) => void;
}

interface FormData {
  catalog: ExtensionCatalog;
  /** The account's knowledge bases, to pick the agent's from. */
  knowledgeBases: KnowledgeBase[];
}

async function loadFormData(signal: AbortSignal): Promise<FormData> {
  const [catalog, bases] = await Promise.all([loadCatalog(signal), knowledgeApi.list(signal)]);
  return { catalog, knowledgeBases: bases.data };
}

/**
 * Create (agent null) or edit an agent: every field of the contract, plugins
 * and platforms through the forms of the schemas the server publishes,
 * secrets write-only. The form waits for those schemas.
 */
export function AgentForm(props: Props) {
  const [data, reload] = useResource(loadFormData, []);
  return (
    <Loaded resource={data} what="plugins, platforms and knowledge bases" onRetry={reload}>
      {(loaded) => <AgentFormFields {...props} catalog={loaded.catalog} knowledgeBases={loaded.knowledgeBases} />}
    </Loaded>
  );
}

function AgentFormFields({ agent, onSaved, catalog, knowledgeBases }: Props & FormData) {
  const [form, setForm] = useState<AgentFormState>(() => (agent ? formOf(agent, catalog) : emptyForm()));
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);

  useEffect(() => setForm(agent ? formOf(agent, catalog) : emptyForm()), [agent]);

  const { byField, unplaced } = assignErrors(errors, pointersOf(form, catalog));
  const set = (update: Partial<AgentFormState>) => setForm({ ...form, ...update });
  const setModel = (update: Partial<AgentFormState['model']>) =>
    setForm({ ...form, model: { ...form.model, ...update } });

  // After a failed save, focus goes to the first field in error (or the summary).
  useEffect(() => {
    if (errors.length === 0 && problem === null) return;
    const first =
      document.querySelector<HTMLElement>('[aria-invalid="true"]') ?? document.getElementById('form-problem');
    first?.focus();
  }, [errors, problem]);

  const submit = async (event: Event) => {
    event.preventDefault();
    setSaved(null);
    let body: Record<string, unknown>;
    try {
      body = agent ? patchBody(form, agent, catalog) : createBody(form, catalog);
    } catch (caught) {
      if (caught instanceof FormErrors) {
        setErrors(caught.errors);
        setProblem('Some fields need attention.');
        return;
      }
      throw caught;
    }
    setSaving(true);
    try {
      const result = agent ? await api.updateAgent(agent.id, body) : await api.createAgent(body);
      setErrors([]);
      setProblem(null);
      setSaved(agent ? 'Saved.' : null);
      onSaved(result);
    } catch (caught) {
      if (caught instanceof ApiError) {
        setErrors(caught.fieldErrors);
        setProblem(caught.message);
      } else setProblem('The server could not be reached.');
    } finally {
      setSaving(false);
    }
  };

  const text = (pointer: string, label: string, value: string, update: (value: string) => void, hint?: string) => (
    <Field pointer={pointer} label={label} errors={byField.get(pointer)} hint={hint}>
      {(props) => <input {...props} type="text" value={value} onInput={(event) => update(event.currentTarget.value)} />}
    </Field>
  );
  const area = (pointer: string, label: string, value: string, update: (value: string) => void, hint?: string) => (
    <Field pointer={pointer} label={label} errors={byField.get(pointer)} hint={hint}>
      {(props) => <textarea {...props} rows={3} value={value} onInput={(event) => update(event.currentTarget.value)} />}
    </Field>
  );
  const oneALine = 'One per line.';

  return (
    <form class="agent-form" onSubmit={submit} noValidate aria-labelledby="agent-form-title">
      {agent ? (
        <h2 id="agent-form-title" tabIndex={-1}>
          Edit {agent.name}
        </h2>
      ) : (
        <h1 id="agent-form-title" tabIndex={-1}>
          New agent
        </h1>
      )}
      {problem && (
        <div id="form-problem" class="problem" role="alert" tabIndex={-1}>
          <p>{problem}</p>
          {unplaced.length > 0 && (
            <ul>
              {unplaced.map((error) => (
                <li>
                  <code>{error.path || '/'}</code> {error.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {saved && (
        <p class="notice" role="status">
          {saved}
        </p>
      )}

      <fieldset>
        <legend>Identity</legend>
        <Field pointer="/name" label="Name" errors={byField.get('/name')} required>
          {(props) => (
            <input
              {...props}
              type="text"
              value={form.name}
              onInput={(event) => set({ name: event.currentTarget.value })}
            />
          )}
        </Field>
        <Field pointer="/status" label="Status" errors={byField.get('/status')}>
          {(props) => (
            <select {...props} value={form.status} onChange={(event) => set({ status: event.currentTarget.value })}>
              {form.status === 'error' && <option value="error">error (set by the service)</option>}
              {statusOptions.map((status) => (
                <option value={status}>{status}</option>
              ))}
            </select>
          )}
        </Field>
        {area('/bio', 'Bio', form.bio, (bio) => set({ bio }), oneALine)}
        {area('/system', 'System prompt', form.system, (system) => set({ system }))}
      </fieldset>

      <fieldset>
        <legend>Personality and goals</legend>
        {area('/personality/traits', 'Traits', form.traits, (traits) => set({ traits }), oneALine)}
        {area('/personality/style', 'Style', form.style, (style) => set({ style }), oneALine)}
        {text('/personality/tone', 'Tone', form.tone, (tone) => set({ tone }))}
        {area('/expertise', 'Expertise', form.expertise, (expertise) => set({ expertise }), oneALine)}
        {area('/goals/objectives', 'Objectives', form.objectives, (objectives) => set({ objectives }), oneALine)}
        {area('/goals/motivations', 'Motivations', form.motivations, (motivations) => set({ motivations }), oneALine)}
      </fieldset>

      <fieldset>
        <legend>Knowledge and metadata</legend>
        <KnowledgeEditor rows={form.knowledge} errors={byField} onChange={(knowledge) => set({ knowledge })} />
        <MetadataEditor rows={form.metadata} errors={byField} onChange={(metadata) => set({ metadata })} />
      </fieldset>

      <fieldset aria-describedby={byField.get('/model') ? `${fieldId('/model')}-error` : undefined}>
        <legend>Model</legend>
        {byField.get('/model') && (
          <p id={`${fieldId('/model')}-error`} class="field-error">
            {byField.get('/model')?.join('; ')}
          </p>
        )}
        <div class="grid">
          {text(
            '/model/provider',
            'Provider',
            form.model.provider,
            (provider) => setModel({ provider }),
            'e.g. builtin, openai',
          )}
          {text('/model/name', 'Model name', form.model.name, (name) => setModel({ name }))}
          {text(
            '/model/temperature',
            'Temperature',
            form.model.temperature,
            (temperature) => setModel({ temperature }),
            '0–2',
          )}
          {text('/model/topP', 'Top P', form.model.topP, (topP) => setModel({ topP }), '0–1')}
          {text('/model/maxOutputTokens', 'Max output tokens', form.model.maxOutputTokens, (maxOutputTokens) =>
            setModel({ maxOutputTokens }),
          )}
          {text('/model/maxSteps', 'Max tool steps', form.model.maxSteps, (maxSteps) => setModel({ maxSteps }), '1–20')}
        </div>
        <Field
          pointer="/model/apiKey"
          label="Provider API key"
          errors={byField.get('/model/apiKey')}
          hint={
            form.model.apiKeyMasked
              ? `Stored: ${form.model.apiKeyMasked}. Leave empty to keep it.`
              : 'Write-only. Only where the operator allows per-agent keys.'
          }
        >
          {(props) => (
            <input
              {...props}
              type="password"
              autoComplete="off"
              value={form.model.apiKey}
              onInput={(event) => setModel({ apiKey: event.currentTarget.value })}
            />
          )}
        </Field>
      </fieldset>

      <AgentSettings form={form} knowledgeBases={knowledgeBases} errors={byField} onChange={set} />

      <ExtensionRows
        kind="plugins"
        kinds={catalog.plugins}
        rows={form.plugins}
        errors={byField}
        onChange={(plugins) => set({ plugins })}
      />
      <ExtensionRows
        kind="platforms"
        kinds={catalog.platforms}
        rows={form.platforms}
        errors={byField}
        onChange={(platforms) => set({ platforms })}
      />

      <fieldset>
        <legend>Protection</legend>
        <div class="check">
          <input
            id={fieldId('/deletionProtection')}
            type="checkbox"
            checked={form.deletionProtection}
            onChange={(event) => set({ deletionProtection: event.currentTarget.checked })}
          />
          <label for={fieldId('/deletionProtection')}>Deletion protection (the agent cannot be deleted)</label>
        </div>
      </fieldset>

      <div class="actions">
        <button type="submit" disabled={saving}>
          {saving ? 'Saving…' : agent ? 'Save changes' : 'Create agent'}
        </button>
      </div>
    </form>
  );
}
