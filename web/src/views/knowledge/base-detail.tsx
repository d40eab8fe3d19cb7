import { useState } from 'preact/hooks';
import { hrefOf, navigate } from '../../route.js';
import { Loaded, useResource } from '../../ui/resource.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { Documents } from './documents.js';
import { knowledgeApi } from './requests.js';
import { SearchBase } from './search-base.js';
import { UploadDocument } from './upload-document.js';

/** One knowledge base: its documents (uploading, status, retry, delete) and a search box. */
export function KnowledgeBaseDetail({ id }: { id: string }) {
  const [base, reloadBase] = useResource((signal) => knowledgeApi.get(id, signal), [id]);
  const [documents, reloadDocuments] = useResource((signal) => knowledgeApi.documents(id, signal), [id]);
  const [deleting, setDeleting] = useState(false);
  const name = base.status === 'ready' ? base.data.name : 'Knowledge base';

  return (
    <section aria-labelledby="knowledge-base-title">
      <p>
        <a href={hrefOf({ name: 'knowledge' })}>← All knowledge bases</a>
      </p>
      <div class="section-head">
        <h1 id="knowledge-base-title" tabIndex={-1}>
          {name}
        </h1>
        {base.status === 'ready' && (
          <button type="button" class="danger" onClick={() => setDeleting(true)}>
            Delete knowledge base
          </button>
        )}
      </div>
      <Loaded resource={base} what="the knowledge base" onRetry={reloadBase}>
        {(loaded) => (
          <>
            {loaded.description && <p class="hint">{loaded.description}</p>}
            <UploadDocument baseId={loaded.id} onUploaded={reloadDocuments} />
            <Documents baseId={loaded.id} documents={documents} reload={reloadDocuments} />
            <SearchBase baseId={loaded.id} />
            <ConfirmDialog
              open={deleting}
              title={`Delete ${loaded.name}?`}
              confirmLabel="Delete knowledge base"
              onClose={() => setDeleting(false)}
              onConfirm={async () => {
                await knowledgeApi.remove(loaded.id);
                navigate({ name: 'knowledge' });
              }}
            >
              <p>Its documents are deleted with it, and agents using it stop citing it. This cannot be undone.</p>
            </ConfirmDialog>
          </>
        )}
      </Loaded>
    </section>
  );
}
