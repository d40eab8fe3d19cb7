import { useEffect, useState } from 'preact/hooks';
import { Loaded, useResource } from '../../ui/resource.js';
import { ConfirmDialog } from '../knowledge/confirm-dialog.js';
import { FactRow } from './fact-row.js';
import { memoryApi, ownerLabel, type Memory, type MemoryOwner } from './requests.js';

/** One user's or room's memory: the summary, the facts (edit, forget one), and forgetting all of it. */
export function MemoryPanel({
  agentId,
  owner,
  onForgotten,
}: {
  agentId: string;
  owner: MemoryOwner;
  onForgotten: () => void;
}) {
  const [loaded, reload] = useResource((signal) => memoryApi.get(agentId, owner, signal), [agentId]);
  // Edits answer with the memory as it now is: shown without another read.
  const [memory, setMemory] = useState<Memory | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [forgetting, setForgetting] = useState(false);
  const [withTurns, setWithTurns] = useState(false);
  useEffect(() => setMemory(loaded.status === 'ready' ? loaded.data : null), [loaded]);
  const resource = memory ? { status: 'ready' as const, data: memory } : loaded;
  const who = ownerLabel(owner);

  return (
    <section class="memory" aria-labelledby="memory-owner-title">
      <div class="section-head">
        <h3 id="memory-owner-title">Memory of {who}</h3>
        <button
          type="button"
          class="danger"
          onClick={() => {
            setWithTurns(false);
            setForgetting(true);
          }}
        >
          Forget everything about {who}
        </button>
      </div>
      {notice && <p role="status">{notice}</p>}
      <Loaded resource={resource} what="memory" onRetry={reload}>
        {(current) => (
          <>
            <h4>Summary</h4>
            {current.summary ? (
              <p class="memory-summary">{current.summary}</p>
            ) : (
              <p class="hint">No summary yet: one is written as turns leave the prompt's window.</p>
            )}
            {'userId' in owner && (
              <>
                {current.facts.length === 0 ? (
                  <>
                    <h4>Facts</h4>
                    <p class="hint">No facts about this user yet.</p>
                  </>
                ) : (
                  <table class="facts">
                    <caption>Facts about {owner.userId}</caption>
                    <thead>
                      <tr>
                        <th scope="col">Subject</th>
                        <th scope="col">Statement</th>
                        <th scope="col">Source</th>
                        <th scope="col">Actions</th>
                      </tr>
                    </thead>
                    <tbody>
                      {current.facts.map((fact) => (
                        <FactRow
                          key={fact.id}
                          fact={fact}
                          onSave={async (statement) => {
                            setMemory(await memoryApi.update(agentId, owner, { facts: [{ id: fact.id, statement }] }));
                            setNotice(`Saved the fact on ${fact.subject}.`);
                          }}
                          onForget={async () => {
                            setMemory(
                              await memoryApi.update(agentId, owner, { facts: [{ id: fact.id, delete: true }] }),
                            );
                            setNotice(`Forgot the fact on ${fact.subject}.`);
                          }}
                        />
                      ))}
                    </tbody>
                  </table>
                )}
              </>
            )}
            <ConfirmDialog
              open={forgetting}
              title={`Forget everything about ${who}?`}
              confirmLabel="Forget"
              onClose={() => setForgetting(false)}
              onConfirm={async () => {
                if (withTurns) {
                  await memoryApi.forgetConversation(agentId, owner);
                  onForgotten();
                } else {
                  await memoryApi.forgetMemory(agentId, owner, current.facts);
                  setMemory(await memoryApi.get(agentId, owner));
                }
                setNotice(`Forgot the memory of ${who}.`);
              }}
            >
              <p>
                The summary {'userId' in owner ? 'and every fact ' : ''}of {who} are forgotten; the next reply no longer
                carries them.
              </p>
              <div class="check">
                <input
                  id="forget-turns"
                  type="checkbox"
                  checked={withTurns}
                  onChange={(event) => setWithTurns(event.currentTarget.checked)}
                />
                <label for="forget-turns">Also delete the conversation's stored turns</label>
              </div>
            </ConfirmDialog>
          </>
        )}
      </Loaded>
    </section>
  );
}
