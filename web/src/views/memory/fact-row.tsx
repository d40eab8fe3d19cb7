import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../../api.js';
import { messageOf } from '../../ui/resource.js';
import type { Fact } from './requests.js';

/** One fact: read, or edited in place (Escape cancels), or forgotten. */
export function FactRow({
  fact,
  onSave,
  onForget,
}: {
  fact: Fact;
  onSave: (statement: string) => Promise<void>;
  onForget: () => Promise<void>;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const editing = draft !== null;
  // Focus goes to what appeared: the statement, when editing starts (autofocus works on page load only).
  useEffect(() => {
    if (editing) input.current?.focus();
  }, [editing]);
  const inputId = `fact-${fact.id}`;

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setProblem(null);
    try {
      await action();
      return true;
    } catch (caught) {
      // A field error names /body/facts/0/statement: it is this row's statement either way.
      setProblem(caught instanceof ApiError ? (caught.fieldErrors[0]?.message ?? caught.message) : messageOf(caught));
      return false;
    } finally {
      setBusy(false);
    }
  };
  const cancel = () => {
    setDraft(null);
    setProblem(null);
    requestAnimationFrame(() => editButton.current?.focus());
  };

  return (
    <tr>
      <th scope="row">{fact.subject}</th>
      <td data-label="Statement">
        {draft === null ? (
          fact.statement
        ) : (
          <form
            class="fact-edit"
            onSubmit={async (event) => {
              event.preventDefault();
              if (await run(() => onSave(draft.trim()))) cancel();
            }}
          >
            <label for={inputId} class="visually-hidden">
              Statement on {fact.subject}
            </label>
            <input
              id={inputId}
              ref={input}
              type="text"
              required
              maxLength={500}
              value={draft}
              aria-invalid={problem ? 'true' : undefined}
              aria-describedby={problem ? `${inputId}-error` : undefined}
              onInput={(event) => setDraft(event.currentTarget.value)}
              onKeyDown={(event) => {
                if (event.key === 'Escape') cancel();
              }}
            />
            <button type="submit" disabled={busy}>
              Save
            </button>
            <button type="button" class="secondary" onClick={cancel}>
              Cancel
            </button>
          </form>
        )}
        {problem && (
          <p id={`${inputId}-error`} class="field-error" role="alert">
            {problem}
          </p>
        )}
      </td>
      <td data-label="Source">{fact.sourceMessageId ? 'from a message' : 'written by hand'}</td>
      <td class="row-actions">
        {draft === null && (
          <button type="button" class="secondary" ref={editButton} onClick={() => setDraft(fact.statement)}>
            Edit <span class="visually-hidden">the fact on {fact.subject}</span>
          </button>
        )}
        <button type="button" class="danger" disabled={busy} onClick={() => void run(onForget)}>
          Forget <span class="visually-hidden">the fact on {fact.subject}</span>
        </button>
      </td>
    </tr>
  );
}
