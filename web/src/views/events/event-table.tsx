import type { AgentEvent } from './requests.js';

/** The events of the pages loaded so far, newest first, each with its details behind a disclosure. */
export function EventTable({ events, agentNames }: { events: AgentEvent[]; agentNames: Map<string, string> }) {
  return (
    <table class="events">
      <caption>Events, newest first</caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Kind</th>
          <th scope="col">Agent</th>
          <th scope="col">By</th>
          <th scope="col">Details</th>
        </tr>
      </thead>
      <tbody>
        {events.map((event) => (
          <tr key={event.id}>
            <td>
              <time dateTime={event.createdAt}>{new Date(event.createdAt).toLocaleString()}</time>
            </td>
            <td class="event-type">
              <code>{event.type}</code>
            </td>
            <td>{agentNames.get(event.agentId) ?? <code>{event.agentId}</code>}</td>
            <td>{event.actor === 'service' ? 'the service' : <code>{event.actor}</code>}</td>
            <td>
              <details>
                <summary>
                  {summaryOf(event)}
                  <span class="visually-hidden"> ({event.id})</span>
                </summary>
                <dl class="event-details">
                  <dt>Event</dt>
                  <dd>
                    <code>{event.id}</code>
                  </dd>
                  <dt>Agent</dt>
                  <dd>
                    <code>{event.agentId}</code>
                  </dd>
                  <dt>Request</dt>
                  <dd>{event.requestId ? <code>{event.requestId}</code> : '–'}</dd>
                </dl>
                <pre class="event-data">{JSON.stringify(event.data, null, 2)}</pre>
              </details>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A few words on what changed, from the fields the event data documents (never secret values: there are none). */
function summaryOf(event: AgentEvent): string {
  const data = event.data as Record<string, unknown>;
  if (Array.isArray(data.fields)) return `Fields: ${data.fields.join(', ')}`;
  if (typeof data.from === 'string' && typeof data.to === 'string') return `${data.from} → ${data.to}`;
  if (typeof data.reason === 'string') return data.reason;
  if (typeof data.name === 'string') return data.name;
  if (typeof data.platform === 'string') return data.platform;
  return 'Details';
}
