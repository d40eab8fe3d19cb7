import { useState } from 'preact/hooks';
import type { Agent } from '../api.js';
import { Loaded, useResource } from '../ui/resource.js';
import { ConfirmButton } from './confirm-button.js';
import { Time } from './time.js';
import {
  diffVersions,
  listVersions,
  restoreVersion,
  type VersionDiff,
  type VersionSummary,
} from './versions/requests.js';

const sourceLabels: Record<VersionSummary['source'], string> = {
  create: 'created',
  import: 'imported',
  update: 'updated',
  restore: 'restored',
  detach: 'knowledge base removed',
  existing: 'recorded',
};

/** A JSON Pointer as a person reads it: `/plugins/0/config/url` → `plugins[0].config.url`. */
function fieldOf(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((token, index) => (/^\d+$/.test(token) ? `[${token}]` : index === 0 ? token : `.${token}`))
    .join('');
}

function valueOf(value: unknown): string {
  return value === undefined ? '' : JSON.stringify(value);
}

/** The operations of a diff as a table: which field, how it changed, and to what. */
function DiffTable({ diff }: { diff: VersionDiff }) {
  const caption =
    diff.from === null ? `Version ${diff.to} as first recorded` : `From version ${diff.from} to version ${diff.to}`;
  if (diff.operations.length === 0) return <p role="status">{caption}: no change.</p>;
  return (
    <table class="version-diff">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Change</th>
          <th scope="col">Value</th>
        </tr>
      </thead>
      <tbody>
        {diff.operations.map((operation) => (
          <tr key={`${operation.op}${operation.path}`}>
            <td data-label="Field">
              <code>{fieldOf(operation.path)}</code>
            </td>
            <td data-label="Change">
              {operation.op === 'add' ? 'added' : operation.op === 'remove' ? 'removed' : 'changed'}
            </td>
            <td data-label="Value">
              <code>{valueOf(operation.value)}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * An agent's Versions tab: every configuration it had, newest first; for a
 * version, what changed from the one before or what differs from now; and
 * restore behind a confirmation (a new version equal to the one chosen).
 */
export function AgentVersions({ agent, onRestored }: { agent: Agent; onRestored: (agent: Agent) => void }) {
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const cursor = cursors[cursors.length - 1] ?? null;
  const [page] = useResource((signal) => listVersions(agent.id, cursor, signal), [agent.id, agent.version, cursor]);
  const [shown, setShown] = useState<{ version: number; against: 'previous' | 'current' } | null>(null);
  const [diff] = useResource(
    (signal) =>
      shown === null
        ? Promise.resolve(null)
        : shown.against === 'previous'
          ? diffVersions(agent.id, shown.version, null, signal)
          : diffVersions(agent.id, agent.version, shown.version, signal),
    [agent.id, agent.version, shown?.version, shown?.against],
  );
  const [notice, setNotice] = useState('');

  return (
    <section aria-labelledby="versions-title" class="agent-versions">
      <h2 id="versions-title" tabIndex={-1}>
        Versions
      </h2>
      <p class="hint">
        Every change of configuration is kept as a version (a change of status is not). The current one is version{' '}
        {agent.version}. Restoring makes a new version; secrets come back only if the agent still holds them.
      </p>
      <p role="status" class="notice-line">
        {notice}
      </p>
      <Loaded
        resource={page}
        what="versions"
        isEmpty={(data) => data.data.length === 0}
        empty={<p>No versions kept.</p>}
      >
        {(data) => (
          <>
            <table class="versions">
              <thead>
                <tr>
                  <th scope="col">Version</th>
                  <th scope="col">When</th>
                  <th scope="col">What</th>
                  <th scope="col">Fields</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.data.map((version) => (
                  <tr key={version.version}>
                    <th scope="row">
                      {version.version}
                      {version.version === agent.version ? ' (current)' : ''}
                    </th>
                    <td data-label="When">
                      <Time value={version.createdAt} />
                    </td>
                    <td data-label="What">
                      {sourceLabels[version.source]}
                      {version.restoredFrom !== null ? ` from version ${version.restoredFrom}` : ''}
                      {version.keyId ? (
                        <>
                          {' '}
                          by <code>{version.keyId}</code>
                        </>
                      ) : null}
                    </td>
                    <td data-label="Fields">{version.fields.join(', ') || '—'}</td>
                    <td class="actions">
                      <button
                        type="button"
                        class="secondary"
                        onClick={() => setShown({ version: version.version, against: 'previous' })}
                      >
                        Changes in version {version.version}
                      </button>
                      {version.version !== agent.version && (
                        <>
                          <button
                            type="button"
                            class="secondary"
                            onClick={() => setShown({ version: version.version, against: 'current' })}
                          >
                            Compare version {version.version} with current
                          </button>
                          <ConfirmButton
                            label={`Restore version ${version.version}`}
                            title={`Restore version ${version.version}?`}
                            text={
                              `The agent's configuration becomes that of version ${version.version}, as a new ` +
                              'version. Its status stays as it is.'
                            }
                            confirmLabel="Restore"
                            busyLabel="Restoring…"
                            onConfirm={async () => {
                              const restored = await restoreVersion(agent.id, version.version);
                              setNotice(`Version ${version.version} restored as version ${restored.version}.`);
                              setShown(null);
                              setCursors([null]);
                              onRestored(restored);
                            }}
                          />
                        </>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <div class="actions">
              {cursors.length > 1 && (
                <button type="button" class="secondary" onClick={() => setCursors(cursors.slice(0, -1))}>
                  Newer versions
                </button>
              )}
              {data.pagination.nextCursor && (
                <button
                  type="button"
                  class="secondary"
                  onClick={() => setCursors([...cursors, data.pagination.nextCursor])}
                >
                  Older versions
                </button>
              )}
            </div>
          </>
        )}
      </Loaded>
      {shown !== null && (
        <section aria-label="Differences" class="version-diff-panel">
          <Loaded resource={diff} what="differences">
            {(data) => (data === null ? null : <DiffTable diff={data} />)}
          </Loaded>
        </section>
      )}
    </section>
  );
}
