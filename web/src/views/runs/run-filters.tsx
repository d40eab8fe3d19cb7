import type { Agent } from '../../api.js';
import { runStatuses, runTriggers, type Run, type RunFilter } from './requests.js';

interface RunFiltersProps {
  filter: RunFilter;
  /** The agents to pick from; null on an agent's own tab, which has no agent filter. */
  agents: Agent[] | null;
  /** True when the account has more agents than the picker offers. */
  moreAgents: boolean;
  onChange: (filter: RunFilter) => void;
}

/** The status, trigger and agent the runs are narrowed to; a change reloads the first page. */
export function RunFilters({ filter, agents, moreAgents, onChange }: RunFiltersProps) {
  const agentKnown = filter.agentId === '' || agents?.some((agent) => agent.id === filter.agentId);
  return (
    <div class="filters" role="group" aria-label="Filter runs">
      <div class="field">
        <label for="runs-status">Status</label>
        <select
          id="runs-status"
          value={filter.status}
          onChange={(event) => onChange({ ...filter, status: event.currentTarget.value as Run['status'] | '' })}
        >
          <option value="">Any status</option>
          {runStatuses.map((status) => (
            <option value={status}>{status}</option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="runs-trigger">Trigger</label>
        <select
          id="runs-trigger"
          value={filter.trigger}
          onChange={(event) => onChange({ ...filter, trigger: event.currentTarget.value as Run['trigger'] | '' })}
        >
          <option value="">Any trigger</option>
          {runTriggers.map((trigger) => (
            <option value={trigger}>{trigger}</option>
          ))}
        </select>
      </div>
      {agents && (
        <div class="field">
          <label for="runs-agent">Agent</label>
          <select
            id="runs-agent"
            value={filter.agentId}
            aria-describedby={moreAgents ? 'runs-agent-hint' : undefined}
            onChange={(event) => onChange({ ...filter, agentId: event.currentTarget.value })}
          >
            <option value="">All agents</option>
            {agents.map((agent) => (
              <option value={agent.id}>{agent.name}</option>
            ))}
            {!agentKnown && <option value={filter.agentId}>{filter.agentId}</option>}
          </select>
          {moreAgents && (
            <p id="runs-agent-hint" class="hint">
              The first {agents.length} agents by name; open an agent's Runs tab for another's.
            </p>
          )}
        </div>
      )}
    </div>
  );
}
