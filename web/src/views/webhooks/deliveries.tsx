import { useEffect, useState } from 'preact/hooks';
import { Loaded, messageOf, useResource } from '../../ui/resource.js';
import { Time } from '../time.js';
import { webhooks, type Delivery, type DeliveryList } from './requests.js';

/** While a delivery is pending its attempts are still coming: the first page is read again this often. */
const pendingRefreshMs = 2000;

/**
 * A webhook's delivery log, newest first: each delivery with every attempt
 * (status code, time, error) and a way to send it again. Older pages are
 * added by the server's cursor.
 */
export function Deliveries({ webhookId }: { webhookId: string }) {
  const [first, reload] = useResource((signal) => webhooks.deliveries(webhookId, { limit: 20 }, signal), [webhookId]);
  const [older, setOlder] = useState<DeliveryList[]>([]);
  const [status, setStatus] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const pending = first.status === 'ready' && first.data.data.some((delivery) => delivery.status === 'pending');
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(reload, pendingRefreshMs);
    return () => clearTimeout(timer);
  }, [first]);

  const last = older.at(-1) ?? (first.status === 'ready' ? first.data : null);
  const loadOlder = async () => {
    if (!last?.pagination.nextCursor) return;
    try {
      const page = await webhooks.deliveries(webhookId, { limit: 20, cursor: last.pagination.nextCursor });
      setOlder([...older, page]);
    } catch (caught) {
      setProblem(messageOf(caught));
    }
  };

  const redeliver = async (delivery: Delivery) => {
    setProblem(null);
    try {
      await webhooks.redeliver(webhookId, delivery.id);
      setStatus(`${delivery.eventType} queued again as a new delivery.`);
      reload();
    } catch (caught) {
      setProblem(messageOf(caught));
    }
  };

  return (
    <section aria-labelledby="deliveries-title" class="deliveries">
      <div class="section-head">
        <h2 id="deliveries-title">Deliveries</h2>
        <button type="button" class="secondary" onClick={reload}>
          Refresh deliveries
        </button>
      </div>
      <p role="status">{status}</p>
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      <Loaded
        resource={first}
        what="deliveries"
        onRetry={reload}
        isEmpty={(data) => data.data.length === 0}
        empty={<p>No deliveries yet: one appears here when an event the webhook subscribes to happens.</p>}
      >
        {(page) => {
          const seen = new Set<string>();
          const all = [page, ...older]
            .flatMap((each) => each.data)
            .filter((delivery) => !seen.has(delivery.id) && Boolean(seen.add(delivery.id)));
          return (
            <>
              <ol class="delivery-list">
                {all.map((delivery) => (
                  <DeliveryItem key={delivery.id} delivery={delivery} onRedeliver={() => redeliver(delivery)} />
                ))}
              </ol>
              {last?.pagination.hasMore && (
                <button type="button" class="secondary" onClick={loadOlder}>
                  Load older deliveries
                </button>
              )}
            </>
          );
        }}
      </Loaded>
    </section>
  );
}

function DeliveryItem({ delivery, onRedeliver }: { delivery: Delivery; onRedeliver: () => void }) {
  const titleId = `delivery-${delivery.id}`;
  return (
    <li class="delivery card">
      <div class="section-head">
        <h3 id={titleId}>
          <code>{delivery.eventType}</code> <span class={`status delivery-${delivery.status}`}>{delivery.status}</span>
        </h3>
        <button type="button" class="secondary" aria-describedby={titleId} onClick={onRedeliver}>
          Redeliver
        </button>
      </div>
      <p class="hint">
        Event <code>{delivery.eventId}</code> · queued <Time value={delivery.createdAt} />
        {delivery.nextAttemptAt && (
          <>
            {' '}
            · next attempt <Time value={delivery.nextAttemptAt} />
          </>
        )}
      </p>
      {delivery.attemptLog.length === 0 ? (
        <p>No attempt yet.</p>
      ) : (
        <table class="admin-table attempts">
          <caption>
            {delivery.attemptLog.length} attempt{delivery.attemptLog.length === 1 ? '' : 's'}
          </caption>
          <thead>
            <tr>
              <th scope="col">Attempt</th>
              <th scope="col">Status code</th>
              <th scope="col">Time</th>
              <th scope="col">Duration</th>
              <th scope="col">Error</th>
            </tr>
          </thead>
          <tbody>
            {delivery.attemptLog.map((attempt) => (
              <tr key={attempt.attempt}>
                <th scope="row">{attempt.attempt}</th>
                <td>{attempt.statusCode ?? 'no answer'}</td>
                <td>
                  <Time value={attempt.at} />
                </td>
                <td>{attempt.durationMs} ms</td>
                <td>{attempt.error ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </li>
  );
}
