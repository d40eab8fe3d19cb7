import { useEffect, useMemo, useState } from 'preact/hooks';
import { Loaded, messageOf, useResource } from '../ui/resource.js';
import { loadAgentChoices } from './agent-choices.js';
import { EventFilters } from './events/event-filters.js';
import { EventTable } from './events/event-table.js';
import { listEvents, type AgentEvent, type EventFilter } from './events/requests.js';

interface Trail {
  events: AgentEvent[];
  nextCursor: string | null;
}

/**
 * The account's event trail (GET /v1/events): narrowed by kind and agent,
 * newest first, older pages appended by cursor with "Load older events".
 */
export function EventsView(_props: object) {
  const [filter, setFilter] = useState<EventFilter>({ type: '', agentId: '' });
  const [choices] = useResource((signal) => loadAgentChoices(signal), []);
  const [firstPage, reload] = useResource((signal) => listEvents(filter, null, signal), [filter.type, filter.agentId]);
  const [trail, setTrail] = useState<Trail | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreProblem, setMoreProblem] = useState<string | null>(null);

  useEffect(() => {
    setMoreProblem(null);
    setTrail(
      firstPage.status === 'ready'
        ? { events: firstPage.data.data, nextCursor: firstPage.data.pagination.nextCursor }
        : null,
    );
  }, [firstPage]);

  const agents = choices.status === 'ready' ? choices.data.agents : [];
  const agentNames = useMemo(() => new Map(agents.map((agent) => [agent.id, agent.name])), [agents]);

  const loadOlder = async () => {
    if (!trail?.nextCursor) return;
    setLoadingMore(true);
    setMoreProblem(null);
    try {
      const page = await listEvents(filter, trail.nextCursor);
      setTrail({ events: [...trail.events, ...page.data], nextCursor: page.pagination.nextCursor });
    } catch (caught) {
      setMoreProblem(messageOf(caught));
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <section aria-labelledby="events-title">
      <h1 id="events-title" tabIndex={-1}>
        Events
      </h1>
      <p class="hint">What happened to your agents: changes, status, connectors, runs and memory.</p>
      <EventFilters
        filter={filter}
        agents={agents}
        moreAgents={choices.status === 'ready' && choices.data.more}
        onChange={setFilter}
      />
      <Loaded
        resource={firstPage}
        what="events"
        onRetry={reload}
        isEmpty={(page) => page.data.length === 0}
        empty={<p>{filter.type || filter.agentId ? 'No events match these filters.' : 'No events yet.'}</p>}
      >
        {() =>
          trail && (
            <>
              <EventTable events={trail.events} agentNames={agentNames} />
              <p role="status" class="hint">
                {trail.events.length} {trail.events.length === 1 ? 'event' : 'events'} shown
                {trail.nextCursor ? '; older ones remain.' : ', the whole trail.'}
              </p>
              {moreProblem && (
                <p class="problem" role="alert">
                  {moreProblem}
                </p>
              )}
              {trail.nextCursor && (
                <button type="button" class="secondary" disabled={loadingMore} onClick={loadOlder}>
                  {loadingMore ? 'Loading older events…' : 'Load older events'}
                </button>
              )}
            </>
          )
        }
      </Loaded>
    </section>
  );
}
