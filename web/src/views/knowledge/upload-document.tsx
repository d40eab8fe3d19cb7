import { useRef, useState } from 'preact/hooks';
import { messageOf } from '../../ui/resource.js';
import { uploadDocument } from './requests.js';

/** What the add-document route reads from a file (text, Markdown, HTML, JSON, PDF). */
const accepted =
  '.txt,.text,.md,.markdown,.html,.htm,.json,.pdf,text/plain,text/markdown,text/html,application/json,application/pdf';

/** Picks a file and uploads it, with a progress bar while the bytes travel. */
export function UploadDocument({ baseId, onUploaded }: { baseId: string; onUploaded: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    const file = input.current?.files?.[0];
    if (!file) {
      setOutcome({ ok: false, text: 'Choose a file to upload first.' });
      input.current?.focus();
      return;
    }
    setOutcome(null);
    setProgress(0);
    try {
      const document = await uploadDocument(baseId, file, setProgress);
      setOutcome({
        ok: true,
        text:
          document.status === 'processing'
            ? `Uploaded ${file.name}: it is being indexed.`
            : `${file.name} is already in this base as “${document.title}”.`,
      });
      if (input.current) input.current.value = '';
      onUploaded();
    } catch (caught) {
      setOutcome({ ok: false, text: `${file.name} was not uploaded: ${messageOf(caught)}` });
    } finally {
      setProgress(null);
    }
  };

  return (
    <form class="card upload" aria-labelledby="upload-title" onSubmit={submit}>
      <h2 id="upload-title">Add a document</h2>
      <div class="field">
        <label for="upload-file">File</label>
        <input id="upload-file" ref={input} type="file" accept={accepted} aria-describedby="upload-hint" />
        <p id="upload-hint" class="hint">
          Text, Markdown, HTML, JSON or PDF. It is split into chunks and indexed after the upload.
        </p>
      </div>
      {progress !== null && (
        <div class="field">
          <label for="upload-progress">Uploading</label>
          <progress id="upload-progress" max={1} value={progress}>
            {Math.round(progress * 100)} %
          </progress>
        </div>
      )}
      {outcome &&
        (outcome.ok ? (
          <p role="status">{outcome.text}</p>
        ) : (
          <p class="problem" role="alert">
            {outcome.text}
          </p>
        ))}
      <div class="actions">
        <button type="submit" disabled={progress !== null}>
          {progress !== null ? `Uploading… ${Math.round(progress * 100)} %` : 'Upload'}
        </button>
      </div>
    </form>
  );
}
