import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../../api.js';
import { Field } from '../../fields.js';
import { Loaded, useResource } from '../../ui/resource.js';
import { formProblem } from '../form-problem.js';
import { caseProblems, casesToJsonl, parseCases, problemText, type LineProblem } from './jsonl.js';
import { createDataset, getDataset, updateDataset } from './requests.js';
import type { Dataset } from './types.js';

/** The request's bound (1 MiB): a bigger file could never be saved. */
const maxFileBytes = 1024 * 1024;

const example = '{"id":"refund","messages":["I want my money back"],"expect":[{"type":"contains","value":"refund"}]}';

/**
 * Creates a dataset (`datasetId` null) or edits one: its name, description
 * and cases as JSONL, typed, pasted or read from a file. Problems are shown
 * by line, whether this page or the server found them.
 */
export function DatasetEditor({
  datasetId,
  onSaved,
  onClose,
}: {
  datasetId: string | null;
  onSaved: (dataset: Dataset) => void;
  onClose: () => void;
}) {
  const [loaded, reload] = useResource(
    (signal) => (datasetId === null ? Promise.resolve(null) : getDataset(datasetId, signal)),
    [datasetId],
  );
  return (
    <Loaded resource={loaded} what="the dataset" onRetry={reload}>
      {(dataset) => <DatasetForm key={dataset?.id ?? 'new'} dataset={dataset} onSaved={onSaved} onClose={onClose} />}
    </Loaded>
  );
}

function DatasetForm({
  dataset,
  onSaved,
  onClose,
}: {
  dataset: Dataset | null;
  onSaved: (dataset: Dataset) => void;
  onClose: () => void;
}) {
  const [name, setName] = useState(dataset?.name ?? '');
  const [description, setDescription] = useState(dataset?.description ?? '');
  const [text, setText] = useState(() => (dataset ? casesToJsonl(dataset.cases) : ''));
  const [byField, setByField] = useState<Map<string, string[]>>(new Map());
  const [lineProblems, setLineProblems] = useState<LineProblem[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const casesField = useRef<HTMLTextAreaElement>(null);

  useEffect(() => heading.current?.focus(), []);

  const chooseFile = async (event: Event) => {
    const input = event.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) return;
    if (file.size > maxFileBytes) {
      setProblem(`${file.name} is larger than 1 MiB, more than a dataset can hold.`);
      return;
    }
    setProblem(null);
    setLineProblems([]);
    const content = await file.text();
    setText(content);
    const parsed = parseCases(content);
    setNotice(
      parsed.ok
        ? `Read ${parsed.cases.length} ${parsed.cases.length === 1 ? 'case' : 'cases'} from ${file.name}; save to keep them.`
        : `Read ${file.name}; some of its lines need fixing before saving.`,
    );
  };

  const showLineProblems = (problems: LineProblem[]) => {
    setLineProblems(problems);
    setProblem(`The cases have ${problems.length === 1 ? 'a problem' : `${problems.length} problems`}, listed below.`);
    casesField.current?.focus();
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    setByField(new Map());
    setLineProblems([]);
    setProblem(null);
    setNotice('');
    const parsed = parseCases(text);
    if (!parsed.ok) {
      showLineProblems(parsed.problems);
      return;
    }
    setBusy(true);
    try {
      const descriptionValue = description.trim() === '' ? null : description;
      const saved =
        dataset === null
          ? await createDataset({ name, description: descriptionValue, cases: parsed.cases })
          : await updateDataset(dataset.id, { name, description: descriptionValue, cases: parsed.cases });
      onSaved(saved);
    } catch (caught) {
      const errors = caught instanceof ApiError ? caught.fieldErrors : [];
      const ofCases = errors.filter((error) => /^(\/body)?\/cases(\/|$)/.test(error.path));
      if (ofCases.length > 0 && ofCases.length === errors.length) {
        showLineProblems(caseProblems(ofCases, parsed.cases, parsed.lines));
        return;
      }
      const shown = formProblem(caught, ['/name', '/description']);
      setByField(shown.byField);
      if (ofCases.length > 0) setLineProblems(caseProblems(ofCases, parsed.cases, parsed.lines));
      setProblem(shown.message);
    } finally {
      setBusy(false);
    }
  };

  const title = dataset === null ? 'New dataset' : `Edit ${dataset.name}`;
  const casesDescribed = ['dataset-cases-hint', lineProblems.length > 0 ? 'dataset-cases-problems' : '']
    .filter(Boolean)
    .join(' ');
  return (
    <form class="card dataset-editor" onSubmit={submit} aria-labelledby="dataset-editor-title" noValidate>
      <h4 id="dataset-editor-title" tabIndex={-1} ref={heading}>
        {title}
      </h4>
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      <Field pointer="/name" label="Name" required errors={byField.get('/name')}>
        {(props) => (
          <input {...props} value={name} maxLength={100} onInput={(event) => setName(event.currentTarget.value)} />
        )}
      </Field>
      <Field pointer="/description" label="Description" errors={byField.get('/description')}>
        {(props) => (
          <input
            {...props}
            value={description}
            maxLength={2000}
            onInput={(event) => setDescription(event.currentTarget.value)}
          />
        )}
      </Field>
      <div class="field">
        <label for="dataset-file">Import a JSONL file</label>
        <input id="dataset-file" type="file" accept=".jsonl,.ndjson,.txt,application/jsonl" onChange={chooseFile} />
      </div>
      <div class="field">
        <label for="dataset-cases">Cases (JSONL)</label>
        <textarea
          id="dataset-cases"
          ref={casesField}
          class="cases-text"
          rows={10}
          spellcheck={false}
          wrap="off"
          value={text}
          aria-describedby={casesDescribed}
          aria-invalid={lineProblems.length > 0 ? 'true' : undefined}
          onInput={(event) => setText(event.currentTarget.value)}
        />
        <p id="dataset-cases-hint" class="hint">
          One case per line, as the API takes it (docs/evals.md), e.g. <code>{example}</code>
        </p>
        {lineProblems.length > 0 && (
          <ul id="dataset-cases-problems" class="field-error line-problems">
            {lineProblems.map((each, index) => (
              <li key={index}>{problemText(each)}</li>
            ))}
          </ul>
        )}
      </div>
      <p role="status" class="notice-line hint">
        {notice}
      </p>
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : dataset === null ? 'Create dataset' : 'Save dataset'}
        </button>
        <button type="button" class="secondary" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
