import { useEffect, useRef, useState } from 'preact/hooks';
import { messageOf } from '../../ui/resource.js';
import { deleteTask, type Task } from './requests.js';

/** Deleting a task, behind a modal confirmation; Cancel is focused first, Escape closes it. */
export function DeleteTaskDialog({
  agentId,
  task,
  onDeleted,
  onClose,
}: {
  agentId: string;
  task: Task;
  onDeleted: () => void;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  const confirm = async () => {
    setDeleting(true);
    try {
      await deleteTask(agentId, task.id);
      onDeleted();
      dialog.current?.close();
    } catch (caught) {
      setProblem(messageOf(caught));
    } finally {
      setDeleting(false);
    }
  };

  return (
    <dialog ref={dialog} aria-labelledby="delete-task-title" aria-describedby="delete-task-text" onClose={onClose}>
      <h3 id="delete-task-title">Delete {task.name}?</h3>
      <p id="delete-task-text">It will not run again. Its past runs stay readable in the agent's runs.</p>
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      <div class="actions">
        <button type="button" class="secondary" autoFocus onClick={() => dialog.current?.close()}>
          Cancel
        </button>
        <button type="button" class="danger" disabled={deleting} onClick={confirm}>
          {deleting ? 'Deleting…' : 'Delete task'}
        </button>
      </div>
    </dialog>
  );
}
