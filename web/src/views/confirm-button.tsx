import { useRef, useState } from 'preact/hooks';
import { messageOf } from '../ui/resource.js';

interface ConfirmButtonProps {
  /** The button that opens the confirmation. */
  label: string;
  title: string;
  text: string;
  /** The button inside the dialog that does it. */
  confirmLabel: string;
  busyLabel: string;
  danger?: boolean;
  /** Does the thing; a throw is shown in the dialog, which stays open. */
  onConfirm: () => Promise<void>;
}

/**
 * A button whose action cannot be undone (revoke, delete, rotate), asked
 * again in a modal <dialog>: focus starts on Cancel, Escape closes it, and a
 * refusal from the server is read out where the user is.
 */
export function ConfirmButton({ label, title, text, confirmLabel, busyLabel, danger, onConfirm }: ConfirmButtonProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = `confirm-${label.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase()}`;

  const confirm = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await onConfirm();
      dialog.current?.close();
    } catch (caught) {
      setProblem(messageOf(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button
        type="button"
        class={danger ? 'danger' : 'secondary'}
        onClick={() => {
          setProblem(null);
          dialog.current?.showModal();
        }}
      >
        {label}
      </button>
      <dialog ref={dialog} aria-labelledby={`${id}-title`} aria-describedby={`${id}-text`}>
        <h2 id={`${id}-title`}>{title}</h2>
        <p id={`${id}-text`}>{text}</p>
        {problem && (
          <p class="problem" role="alert">
            {problem}
          </p>
        )}
        <div class="actions">
          <button type="button" class="secondary" autoFocus onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="button" class={danger ? 'danger' : ''} disabled={busy} onClick={confirm}>
            {busy ? busyLabel : confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  );
}
