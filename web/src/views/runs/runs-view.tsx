import { useEffect, useMemo, useState } from 'preact/hooks';
import type { Agent } from '../../api.js';
import { hrefOf } from '../../route.js';
import { Loaded, messageOf, useResource } from '../../ui/resource.js';
import { loadAgentChoices } from '../agent-choices.js';
import { durationOf, oneLine, timeOf } from './format.js';
import { RunFilters } from './run-filters.js';
import { listAccountRuns, type Run, type RunFilter } from './requests.js';
import './runs.css';

interface Shown {
  runs: Run[];
  nextCursor: string | null;
}

/** The account's runs (the Runs view): every agent's, with the agent named in each row. */
export function RunsView(_props: object) {
  return <RunsList agent={null} />;
}

/** One agent's runs (its Runs tab). */
export function AgentRuns({ agent }: { agent: Agent }) {
  return <RunsList agent={agent} />;
}

/**
 * Runs newest first, narrowed by status and trigger (and agent, for the
 * account's list), older pages appended by cursor with "Load more". Each
 * row links to the run's page.
 */
function RunsList({ agent }: { agent: Agent | null }) {
  const [filter, setFilter] = useState<RunFilter>({ status: '', trigger: '', agentId: agent?.id ?? '' });
  const [choices] = useResource(
    (signal) => (agent ? Promise.resolve({ agents: [agent], more: false }) : loadAgentChoices(signal)),
    [agent?.id],
  );
  const [firstPage, reload] = useResource(
    (signal) => listAccountRuns(filter, null, signal),
    [filter.status, filter.trigger, filter.agentId],
  );
  const [shown, setShown] = useState<Shown | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreProblem, setMoreProblem] = useState<string | null>(null);

  useEffect(() => {
    setMoreProblem(null);
    setShown(
      firstPage.status === 'ready'
        ? { runs: firstPage.data.data, nextCursor: firstPage.data.pagination.nextCursor }
        : null,
    );
  }, [firstPage]);

  const agents = choices.status === 'ready' ? choices.data.agents : [];
  const agentNames = useMemo(() => new Map(agents.map((each) => [each.id, each.name])), [agents]);

  const loadMore = async () => {
    if (!shown?.nextCursor) return;
    setLoadingMore(true);
    setMoreProblem(null);
    try {
      const page = await listAccountRuns(filter, shown.nextCursor);
      setShown({ runs: [...shown.runs, ...page.data], nextCursor: page.pagination.nextCursor });
    } catch (caught) {
      setMoreProblem(messageOf(caught));
    } finally {
      setLoadingMore(false);
    }
  };

  const Heading = agent ? 'h2' : 'h1';
  const filtered = filter.status !== '' || filter.trigger !== '' || (!agent && filter.agentId !== '');
  return (
    <section class="runs-view" aria-labelledby="runs-title">
      <div class="section-head">
        <Heading id="runs-title" tabIndex={-1}>
          Runs
        </Heading>
        <button type="button" class="secondary" onClick={reload}>
          Refresh
        </button>
      </div>
      <p class="hint">
        Every piece of {agent ? `${agent.name}’s` : 'your agents’'} work, whoever started it: messages, tasks, platforms
        and the other doors. Open one for its steps and prompts.
      </p>
      <RunFilters
        filter={filter}
        agents={agent ? null : agents}
        moreAgents={choices.status === 'ready' && choices.data.more}
        onChange={setFilter}
      />
      <Loaded
        resource={firstPage}
        what="runs"
        onRetry={reload}
        isEmpty={(page) => page.data.length === 0}
        empty={<p>{filtered ? 'No runs match these filters.' : 'No runs yet: send a message to start one.'}</p>}
      >
        {() =>
          shown && (
            <>
              <RunsTable runs={shown.runs} agentNames={agent ? null : agentNames} />
              <p role="status" class="hint">
                {shown.runs.length} {shown.runs.length === 1 ? 'run' : 'runs'} shown
                {shown.nextCursor ? '; older ones remain.' : ', all there are.'}
              </p>
              {moreProblem && (
                <p class="problem" role="alert">
                  {moreProblem}
                </p>
              )}
              {shown.nextCursor && (
                <button type="button" class="secondary" disabled={loadingMore} onClick={loadMore}>
                  {loadingMore ? 'Loading more runs…' : 'Load more'}
                </button>
              )}
            </>
          )
        }
      </Loaded>
    </section>
  );
}

/** `agentNames` is null on an agent's own tab, where the agent column would say the same in every row. */
function RunsTable({ runs, agentNames }: { runs: Run[]; agentNames: Map<string, string> | null }) {
  return (
    <table class="runs-table runs-list">
      <caption class="visually-hidden">Runs, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Status</th>
          <th scope="col">Trigger</th>
          {agentNames && <th scope="col">Agent</th>}
          <th scope="col">Input</th>
          <th scope="col">Started</th>
          <th scope="col">Duration</th>
          <th scope="col">Version</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((run) => (
          <tr key={run.id}>
            <td data-label="Status">
              <span class={`run-status run-${run.status}`}>{run.status}</span>
            </td>
            <td data-label="Trigger">{run.trigger}</td>
            {agentNames && <td data-label="Agent">{agentNames.get(run.agentId) ?? <code>{run.agentId}</code>}</td>}
            <td data-label="Input" class="run-input-cell">
              <a
                class="run-input-line"
                href={hrefOf({ name: 'run', agentId: run.agentId, runId: run.id })}
                title={run.input.length > 80 ? run.input : undefined}
              >
                {oneLine(run.input) || '(no input)'}
                <span class="visually-hidden"> (run {run.id})</span>
              </a>
            </td>
            <td data-label="Started">{timeOf(run.startedAt ?? run.createdAt)}</td>
            <td data-label="Duration">{durationOf(run.startedAt, run.finishedAt)}</td>
            <td data-label="Version">{run.agentVersion === null ? '—' : `v${run.agentVersion}`}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
