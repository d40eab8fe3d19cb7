import { useState } from 'preact/hooks';
import { Loaded, messageOf, type Resource } from '../../ui/resource.js';
import { ConfirmButton } from '../confirm-button.js';
import { downloadFile } from '../download-file.js';
import { Time } from '../time.js';
import { DatasetEditor } from './dataset-editor.js';
import { casesToJsonl, datasetFileName } from './jsonl.js';
import { deleteDataset, getDataset } from './requests.js';
import type { DatasetList } from './types.js';

/**
 * The account's datasets (any of its agents can be evaluated on one): listed
 * with their case counts, created, edited, exported as JSONL and deleted.
 */
export function DatasetsSection({ datasets, onChanged }: { datasets: Resource<DatasetList>; onChanged: () => void }) {
  /** The dataset being edited: null for none, 'new' for a new one. */
  const [editing, setEditing] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const exportDataset = async (datasetId: string) => {
    setProblem(null);
    try {
      const dataset = await getDataset(datasetId);
      const fileName = datasetFileName(dataset.name);
      downloadFile(fileName, casesToJsonl(dataset.cases), 'application/jsonl');
      setNotice(`Downloaded ${fileName} (${dataset.cases.length} ${dataset.cases.length === 1 ? 'case' : 'cases'}).`);
    } catch (caught) {
      setProblem(messageOf(caught));
    }
  };

  return (
    <section aria-labelledby="datasets-title" class="eval-datasets">
      <div class="section-head">
        <h3 id="datasets-title">Datasets</h3>
        {editing === null && (
          <button type="button" onClick={() => setEditing('new')}>
            New dataset
          </button>
        )}
      </div>
      <p class="hint">A dataset's cases are messages to send and what to expect of the replies.</p>
      <p role="status" class="notice-line">
        {notice}
      </p>
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      {editing !== null && (
        <DatasetEditor
          datasetId={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setNotice(`Saved ${saved.name} with ${saved.caseCount} ${saved.caseCount === 1 ? 'case' : 'cases'}.`);
            setEditing(null);
            onChanged();
          }}
        />
      )}
      <Loaded
        resource={datasets}
        what="datasets"
        onRetry={onChanged}
        isEmpty={(list) => list.data.length === 0}
        empty={<p>No datasets yet: create one, or import a JSONL file of cases.</p>}
      >
        {(list) => (
          <>
            <table class="admin-table eval-datasets-table">
              <caption class="visually-hidden">Datasets, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Cases</th>
                  <th scope="col">Updated</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.map((dataset) => (
                  <tr key={dataset.id}>
                    <th scope="row">
                      {dataset.name}
                      {dataset.description && <p class="hint">{dataset.description}</p>}
                    </th>
                    <td data-label="Cases">{dataset.caseCount}</td>
                    <td data-label="Updated">
                      <Time value={dataset.updatedAt} />
                    </td>
                    <td class="row-actions">
                      <button
                        type="button"
                        class="secondary"
                        aria-label={`Edit ${dataset.name}`}
                        onClick={() => setEditing(dataset.id)}
                      >
                        Edit
                      </button>
                      <button
                        type="button"
                        class="secondary"
                        aria-label={`Export ${dataset.name}`}
                        onClick={() => exportDataset(dataset.id)}
                      >
                        Export
                      </button>
                      <ConfirmButton
                        label={`Delete ${dataset.name}`}
                        title={`Delete ${dataset.name}?`}
                        text="Evals made with it keep their copy of its cases."
                        confirmLabel="Delete"
                        busyLabel="Deleting…"
                        danger
                        onConfirm={async () => {
                          await deleteDataset(dataset.id);
                          if (editing === dataset.id) setEditing(null);
                          setNotice(`Deleted ${dataset.name}.`);
                          onChanged();
                        }}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {list.pagination.hasMore && <p class="hint">The newest {list.data.length} datasets are listed.</p>}
          </>
        )}
      </Loaded>
    </section>
  );
}
