import { useState } from 'preact/hooks';
import type { Agent } from '../../api.js';
import { Field } from '../../fields.js';
import { Loaded, useResource } from '../../ui/resource.js';
import { formProblem } from '../form-problem.js';
import { listVersions } from '../versions/requests.js';
import { startEval } from './requests.js';
import type { DatasetSummary, EvalSummary } from './types.js';

const pointers = ['/datasetId', '/versions/0', '/versions/1', '/versions', '/judge', '/concurrency'];

/** `provider/model`, as the dashboard writes an agent's model; empty is the agent's own model. */
function judgeOf(text: string): { provider: string; model: string } | null | 'invalid' {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const slash = trimmed.indexOf('/');
  if (slash <= 0 || slash === trimmed.length - 1) return 'invalid';
  return { provider: trimmed.slice(0, slash), model: trimmed.slice(slash + 1) };
}

/**
 * Starts an eval of the agent: a dataset, one version or two to compare
 * (from the agent's versions), an optional judge model for rubric scorers
 * and how many cases are answered at once.
 */
export function StartEvalForm({
  agent,
  datasets,
  onStarted,
}: {
  agent: Agent;
  datasets: DatasetSummary[];
  onStarted: (started: EvalSummary) => void;
}) {
  // The newest page of versions (20): the ones a comparison is usually made of.
  const [versions] = useResource(
    (signal) => listVersions(agent.id, null, signal).then((page) => page.data.map((each) => each.version)),
    [agent.id, agent.version],
  );
  const [datasetId, setDatasetId] = useState(datasets[0]?.id ?? '');
  const [first, setFirst] = useState(String(agent.version));
  const [second, setSecond] = useState('');
  const [judge, setJudge] = useState('');
  const [concurrency, setConcurrency] = useState('2');
  const [byField, setByField] = useState<Map<string, string[]>>(new Map());
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const chosenDataset = datasets.some((dataset) => dataset.id === datasetId) ? datasetId : (datasets[0]?.id ?? '');

  const submit = async (event: Event) => {
    event.preventDefault();
    setProblem(null);
    setByField(new Map());
    const judgeValue = judgeOf(judge);
    if (judgeValue === 'invalid') {
      setByField(new Map([['/judge', ['write it as provider/model, e.g. openai/gpt-4o-mini']]]));
      setProblem('Check the fields marked below.');
      document.getElementById('field-judge')?.focus();
      return;
    }
    setBusy(true);
    try {
      const chosen = [Number(first), ...(second !== '' && second !== first ? [Number(second)] : [])];
      const started = await startEval(agent.id, {
        datasetId: chosenDataset,
        versions: chosen,
        ...(judgeValue ? { judge: judgeValue } : {}),
        concurrency: Number(concurrency),
      });
      onStarted(started);
    } catch (caught) {
      const shown = formProblem(caught, pointers);
      setByField(shown.byField);
      setProblem(shown.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="start-eval-title" class="start-eval">
      <h3 id="start-eval-title">Run an eval</h3>
      {datasets.length === 0 ? (
        <p class="hint">Create a dataset first: an eval answers each of its cases.</p>
      ) : (
        <Loaded resource={versions} what="versions">
          {(numbers) => (
            <form class="card" onSubmit={submit} noValidate>
              {problem && (
                <p class="problem" role="alert">
                  {problem}
                </p>
              )}
              <div class="grid">
                <Field pointer="/datasetId" label="Dataset" errors={byField.get('/datasetId')}>
                  {(props) => (
                    <select
                      {...props}
                      value={chosenDataset}
                      onChange={(event) => setDatasetId(event.currentTarget.value)}
                    >
                      {datasets.map((dataset) => (
                        <option key={dataset.id} value={dataset.id}>
                          {dataset.name} ({dataset.caseCount} {dataset.caseCount === 1 ? 'case' : 'cases'})
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
                <Field
                  pointer="/versions/0"
                  label="Version"
                  errors={[...(byField.get('/versions/0') ?? []), ...(byField.get('/versions') ?? [])]}
                >
                  {(props) => (
                    <select {...props} value={first} onChange={(event) => setFirst(event.currentTarget.value)}>
                      {numbers.map((version) => (
                        <option key={version} value={String(version)}>
                          Version {version}
                          {version === agent.version ? ' (current)' : ''}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
                <Field
                  pointer="/versions/1"
                  label="Compare with"
                  errors={byField.get('/versions/1')}
                  hint="A second version answers the same cases; the cases they differ on come first."
                >
                  {(props) => (
                    <select {...props} value={second} onChange={(event) => setSecond(event.currentTarget.value)}>
                      <option value="">No other version</option>
                      {numbers
                        .filter((version) => String(version) !== first)
                        .map((version) => (
                          <option key={version} value={String(version)}>
                            Version {version}
                            {version === agent.version ? ' (current)' : ''}
                          </option>
                        ))}
                    </select>
                  )}
                </Field>
                <Field
                  pointer="/judge"
                  label="Judge model"
                  errors={byField.get('/judge')}
                  hint="For rubric scorers, as provider/model; empty: the agent's own model."
                >
                  {(props) => (
                    <input
                      {...props}
                      value={judge}
                      placeholder={`${agent.model.provider}/${agent.model.name}`}
                      onInput={(event) => setJudge(event.currentTarget.value)}
                    />
                  )}
                </Field>
                <Field
                  pointer="/concurrency"
                  label="Cases at once"
                  errors={byField.get('/concurrency')}
                  hint="1–10; each takes one of the agent's in-flight slots."
                >
                  {(props) => (
                    <input
                      {...props}
                      type="number"
                      min={1}
                      max={10}
                      value={concurrency}
                      onInput={(event) => setConcurrency(event.currentTarget.value)}
                    />
                  )}
                </Field>
              </div>
              <div class="actions">
                <button type="submit" disabled={busy}>
                  {busy ? 'Starting…' : 'Start eval'}
                </button>
              </div>
            </form>
          )}
        </Loaded>
      )}
    </section>
  );
}
