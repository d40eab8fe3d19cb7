import { useEffect, useState } from 'preact/hooks';
import { Loaded, messageOf, type Resource } from '../../ui/resource.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { knowledgeApi, type DocumentList, type KnowledgeDocument } from './requests.js';

/** How often the list is read again while a document is still being indexed. */
const pollMilliseconds = 1000;

const sizeOf = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KiB`
      : `${(bytes / 1048576).toFixed(1)} MiB`;

/** A base's documents with their status, read again until every one has settled (ready or failed). */
export function Documents({
  baseId,
  documents,
  reload,
}: {
  baseId: string;
  documents: Resource<DocumentList>;
  reload: () => void;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<KnowledgeDocument | null>(null);
  const unsettled =
    documents.status === 'ready' && documents.data.data.some((document) => document.status === 'processing');

  useEffect(() => {
    if (!unsettled) return;
    const timer = setTimeout(reload, pollMilliseconds);
    return () => clearTimeout(timer);
  }, [documents]);

  const retry = async (document: KnowledgeDocument) => {
    setProblem(null);
    try {
      await knowledgeApi.retry(baseId, document.id);
      reload();
    } catch (caught) {
      setProblem(`${document.title} was not retried: ${messageOf(caught)}`);
    }
  };

  return (
    <section aria-labelledby="documents-title">
      <h2 id="documents-title">Documents</h2>
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      <Loaded
        resource={documents}
        what="documents"
        onRetry={reload}
        isEmpty={(list) => list.data.length === 0}
        empty={<p>No documents yet: upload a file above.</p>}
      >
        {(list) => (
          <>
            <p role="status" class="hint">
              {summaryOf(list.data)}
            </p>
            <table class="documents">
              <caption>Documents of this knowledge base</caption>
              <thead>
                <tr>
                  <th scope="col">Title</th>
                  <th scope="col">Status</th>
                  <th scope="col">Chunks</th>
                  <th scope="col">Size</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {list.data.map((document) => (
                  <tr key={document.id}>
                    <th scope="row">{document.title}</th>
                    <td data-label="Status">
                      <span class={`status document-${document.status}`}>{document.status}</span>
                      {document.status === 'failed' && document.statusReason && (
                        <span class="document-reason"> {document.statusReason}</span>
                      )}
                    </td>
                    <td data-label="Chunks">{document.chunkCount}</td>
                    <td data-label="Size">{sizeOf(document.sizeBytes)}</td>
                    <td class="row-actions">
                      {document.status === 'failed' && (
                        <button type="button" class="secondary" onClick={() => retry(document)}>
                          Retry <span class="visually-hidden">{document.title}</span>
                        </button>
                      )}
                      <button type="button" class="danger" onClick={() => setDeleting(document)}>
                        Delete <span class="visually-hidden">{document.title}</span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </Loaded>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.title ?? 'the document'}?`}
        confirmLabel="Delete document"
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (deleting) await knowledgeApi.removeDocument(baseId, deleting.id);
          reload();
        }}
      >
        <p>Its chunks are no longer searched or cited. This cannot be undone.</p>
      </ConfirmDialog>
    </section>
  );
}

function summaryOf(documents: KnowledgeDocument[]): string {
  const counts = { ready: 0, processing: 0, failed: 0 };
  for (const document of documents) counts[document.status] += 1;
  return (['ready', 'processing', 'failed'] as const)
    .filter((status) => counts[status] > 0)
    .map((status) => `${counts[status]} ${status}`)
    .join(', ');
}
