import { useEffect, useState } from 'preact/hooks';
import type { Agent } from '../api.js';
import { hrefOf } from '../route.js';
import { Loaded, messageOf, useResource } from '../ui/resource.js';
import { platforms, type PlatformReport } from './platforms/requests.js';
import { Time } from './time.js';

/**
 * A connector takes up to a second to start or stop after a change (README,
 * "How changes reach every instance"): the report is read again this often,
 * this many times, until it agrees with what was asked (or, on opening the
 * tab, until the connectors that are starting have started).
 */
const settleRefreshMs = 1000;
const settleRefreshes = 30;

/**
 * An entry whose report does not yet follow the agent's entry (a change on
 * its way): the report's `enabled` and state catch up with the agent's after
 * the connector reconciled, not with the PATCH.
 */
function settling(entry: PlatformReport, index: number, agent: Agent): boolean {
  if (entry.status === 'unsupported') return false;
  const enabled = agent.platforms[index]?.enabled ?? entry.enabled;
  if (entry.enabled !== enabled) return true;
  if (!enabled) return entry.status !== 'stopped';
  return agent.status === 'active' && entry.status === 'stopped';
}

/** An agent's Platforms tab: each connector's state (with the reason when it is not running), on and off. */
export function AgentPlatforms({ agent, onChanged }: { agent: Agent; onChanged?: (agent: Agent) => void }) {
  const [report, reload] = useResource((signal) => platforms.report(agent.id, signal), [agent.id]);
  // Read again from the start too: a connector of an agent just made active may still be starting.
  const [refreshesLeft, setRefreshesLeft] = useState(settleRefreshes);
  const [busy, setBusy] = useState<number | null>(null);
  const [status, setStatus] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (refreshesLeft <= 0 || report.status !== 'ready') return;
    if (!report.data.data.some((entry, index) => settling(entry, index, agent))) {
      setRefreshesLeft(0);
      return;
    }
    const timer = setTimeout(() => {
      setRefreshesLeft((left) => left - 1);
      reload();
    }, settleRefreshMs);
    return () => clearTimeout(timer);
  }, [report, refreshesLeft, agent]);

  const toggle = async (index: number, entry: PlatformReport) => {
    setBusy(index);
    setProblem(null);
    try {
      const updated = await platforms.setEnabled(agent, index, !entry.enabled);
      onChanged?.(updated);
      setStatus(`${entry.type} ${entry.enabled ? 'disabled' : 'enabled'}.`);
      setRefreshesLeft(settleRefreshes);
      reload();
    } catch (caught) {
      setProblem(messageOf(caught));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section aria-labelledby="platforms-title">
      <div class="section-head">
        <h2 id="platforms-title" tabIndex={-1}>
          Platforms
        </h2>
        <button type="button" class="secondary" onClick={reload}>
          Refresh
        </button>
      </div>
      {agent.status !== 'active' && (
        <p class="notice">The agent is {agent.status}: its connectors run only while it is active.</p>
      )}
      <p role="status">{status}</p>
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      <Loaded
        resource={report}
        what="platforms"
        onRetry={reload}
        isEmpty={(data) => data.data.length === 0}
        empty={
          <p>
            This agent has no platforms. Add one (Telegram, Slack, Discord, a signed webhook…) on the{' '}
            <a href={hrefOf({ name: 'agent', agentId: agent.id, tab: 'edit' })}>Edit tab</a>.
          </p>
        }
      >
        {({ data }) => (
          <table class="admin-table">
            <caption class="visually-hidden">Platform connectors of {agent.name}</caption>
            <thead>
              <tr>
                <th scope="col">Platform</th>
                <th scope="col">State</th>
                <th scope="col">Last event</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.map((entry, index) => (
                <tr key={`${index}-${entry.type}`}>
                  <th scope="row">
                    {entry.type}
                    <div class="hint">{entry.enabled ? 'enabled' : 'disabled'}</div>
                  </th>
                  <td data-label="State">
                    <span class={`status platform-${entry.status}`}>{entry.status}</span>
                    {entry.statusReason && <div class="platform-reason">{entry.statusReason}</div>}
                    {entry.instance && <div class="hint">on instance {entry.instance}</div>}
                  </td>
                  <td data-label="Last event">
                    <Time value={entry.lastEventAt} />
                  </td>
                  <td>
                    <button
                      type="button"
                      class="secondary"
                      disabled={busy !== null}
                      onClick={() => toggle(index, entry)}
                    >
                      {entry.enabled ? `Disable ${entry.type}` : `Enable ${entry.type}`}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Loaded>
    </section>
  );
}
