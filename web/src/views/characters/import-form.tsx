import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../../api.js';
import { hrefOf } from '../../route.js';
import { messageOf } from '../../ui/resource.js';
import { importCharacter, type ImportedAgent } from './requests.js';

/** Character files are small JSON documents; a bigger file is surely not one (the server refuses them too). */
const maxFileBytes = 1024 * 1024;

type Problem = { message: string; details: string[] };

/**
 * Imports an ElizaOS character file, chosen or pasted, and shows what the
 * server made of it: the agent, the fields it mapped, and those it left out
 * with the reason (secrets a connector does not take are named, not shown).
 */
export function ImportForm({ onImported }: { onImported: () => void }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [imported, setImported] = useState<ImportedAgent | null>(null);
  const resultHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (imported) resultHeading.current?.focus();
  }, [imported]);

  const chooseFile = async (event: Event) => {
    const file = (event.currentTarget as HTMLInputElement).files?.[0];
    if (!file) return;
    if (file.size > maxFileBytes) {
      setProblem({ message: `${file.name} is larger than 1 MiB: it is not a character file.`, details: [] });
      return;
    }
    setProblem(null);
    setText(await file.text());
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    let character: unknown;
    try {
      character = JSON.parse(text);
    } catch {
      setProblem({ message: 'The character file is not valid JSON.', details: [] });
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      setImported(await importCharacter(character));
      setText('');
      onImported();
    } catch (caught) {
      const details =
        caught instanceof ApiError
          ? caught.fieldErrors.map((error) => `${error.path.replace(/^\/body/, '') || '/'}: ${error.message}`)
          : [];
      setProblem({ message: messageOf(caught), details });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="import-title" class="card">
      <h2 id="import-title">Import a character</h2>
      <form onSubmit={submit}>
        <div class="field">
          <label for="character-file">Character file</label>
          <input id="character-file" type="file" accept=".json,application/json" onChange={chooseFile} />
        </div>
        <div class="field">
          <label for="character-text">Character JSON</label>
          <textarea
            id="character-text"
            rows={10}
            value={text}
            spellcheck={false}
            aria-describedby="character-text-hint"
            aria-invalid={problem ? 'true' : undefined}
            onInput={(event) => setText(event.currentTarget.value)}
          />
          <p id="character-text-hint" class="hint">
            Choose a file or paste its contents. Secrets in it are stored encrypted and never shown again.
          </p>
        </div>
        {problem && (
          <div class="problem" role="alert">
            <p>{problem.message}</p>
            {problem.details.length > 0 && (
              <ul>
                {problem.details.map((detail) => (
                  <li>{detail}</li>
                ))}
              </ul>
            )}
          </div>
        )}
        <div class="actions">
          <button type="submit" disabled={busy || text.trim() === ''}>
            {busy ? 'Importing…' : 'Import'}
          </button>
        </div>
      </form>
      {imported && <ImportResult imported={imported} headingRef={resultHeading} />}
    </section>
  );
}

function ImportResult({
  imported,
  headingRef,
}: {
  imported: ImportedAgent;
  headingRef: { current: HTMLHeadingElement | null };
}) {
  const { agent, report } = imported;
  return (
    <div class="import-result" role="region" aria-labelledby="import-result-title">
      <h3 id="import-result-title" tabIndex={-1} ref={headingRef}>
        Imported {agent.name}
      </h3>
      <p>
        <a href={hrefOf({ name: 'agent', agentId: agent.id, tab: 'chat' })}>Open {agent.name}</a>
      </p>
      <h4>Imported fields</h4>
      {report.mapped.length > 0 ? (
        <ul class="field-list">
          {report.mapped.map((field) => (
            <li>
              <code>{field}</code>
            </li>
          ))}
        </ul>
      ) : (
        <p>None.</p>
      )}
      <h4>Left out</h4>
      {report.unmapped.length > 0 ? (
        <table class="import-report">
          <caption class="visually-hidden">Fields left out, and why</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {report.unmapped.map((entry) => (
              <tr>
                <th scope="row">
                  <code>{entry.field}</code>
                </th>
                <td>{entry.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>Nothing: every field was imported.</p>
      )}
    </div>
  );
}
