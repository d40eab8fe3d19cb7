import type { Agent } from '../../api.js';
import { eventTypes, type EventFilter, type EventType } from './requests.js';

interface EventFiltersProps {
  filter: EventFilter;
  agents: Agent[];
  /** True when the account has more agents than the picker offers. */
  moreAgents: boolean;
  onChange: (filter: EventFilter) => void;
}

/** The kind and agent the trail is narrowed to; a change reloads the first page. */
export function EventFilters({ filter, agents, moreAgents, onChange }: EventFiltersProps) {
  const agentKnown = filter.agentId === '' || agents.some((agent) => agent.id === filter.agentId);
  return (
    <div class="filters" role="group" aria-label="Filter events">
      <div class="field">
        <label for="events-type">Kind</label>
        <select
          id="events-type"
          value={filter.type}
          onChange={(event) => onChange({ ...filter, type: event.currentTarget.value as EventType | '' })}
        >
          <option value="">All kinds</option>
          {eventTypes.map((type) => (
            <option value={type}>{type}</option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="events-agent">Agent</label>
        <select
          id="events-agent"
          value={filter.agentId}
          aria-describedby={moreAgents ? 'events-agent-hint' : undefined}
          onChange={(event) => onChange({ ...filter, agentId: event.currentTarget.value })}
        >
          <option value="">All agents</option>
          {agents.map((agent) => (
            <option value={agent.id}>{agent.name}</option>
          ))}
          {!agentKnown && <option value={filter.agentId}>{filter.agentId}</option>}
        </select>
        {moreAgents && (
          <p id="events-agent-hint" class="hint">
            The first {agents.length} agents by name; open an agent's page for the trail of another.
          </p>
        )}
      </div>
    </div>
  );
}
