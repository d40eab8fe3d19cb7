import type { Database, Dialect, Executor } from '../schema.js';

export type DeliveryState = 'pending' | 'succeeded' | 'failed' | 'cancelled';

export interface DeliveryAttempt {
  attempt: number;
  /** The receiver's status code; null when no answer came (refused, timed out, unreachable). */
  statusCode: number | null;
  durationMs: number;
  /** Why the attempt failed, without the URL or any secret; null on success. */
  error: string | null;
  at: string;
}

export interface DeliveryRecord {
  id: string;
  webhookId: string;
  accountId: string;
  eventId: string;
  eventType: string;
  payload: string;
  state: DeliveryState;
  attempts: number;
  nextAttemptAt: string;
  attemptLog: DeliveryAttempt[];
  createdAt: string;
  updatedAt: string;
}

/** A delivery the dispatcher holds: its outcome is written only while the claim is still its own. */
export interface ClaimedDelivery extends DeliveryRecord {
  claimToken: string;
}

type DeliveryRow = Database['webhook_deliveries'];

function toRecord(row: DeliveryRow): DeliveryRecord {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    accountId: row.account_id,
    eventId: row.event_id,
    eventType: row.event_type,
    payload: row.payload,
    state: row.state as DeliveryState,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    attemptLog: JSON.parse(row.attempt_log) as DeliveryAttempt[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface NewDelivery {
  id: string;
  webhookId: string;
  accountId: string;
  eventId: string;
  eventType: string;
  payload: string;
  createdAt: string;
}

/**
 * The outbox and delivery log. Claims are one conditional UPDATE: on
 * PostgreSQL the candidate rows are locked with SKIP LOCKED and the outer
 * WHERE repeats the due condition, so two instances never claim the same
 * attempt (the second re-checks the row another one just pushed forward);
 * SQLite runs writes one at a time, which gives the same.
 */
export class WebhookDeliveryRepository {
  constructor(
    private readonly db: Executor,
    private readonly dialect: Dialect,
  ) {}

  async insert(deliveries: NewDelivery[], executor: Executor = this.db): Promise<void> {
    if (deliveries.length === 0) return;
    await executor
      .insertInto('webhook_deliveries')
      .values(
        deliveries.map((delivery) => ({
          id: delivery.id,
          webhook_id: delivery.webhookId,
          account_id: delivery.accountId,
          event_id: delivery.eventId,
          event_type: delivery.eventType,
          payload: delivery.payload,
          state: 'pending',
          attempts: 0,
          next_attempt_at: delivery.createdAt,
          claim_token: null,
          attempt_log: '[]',
          created_at: delivery.createdAt,
          updated_at: delivery.createdAt,
        })),
      )
      .execute();
  }

  /** Claims up to `limit` due deliveries until `leaseUntil`, after which another instance may take them over. */
  async claimDue(now: string, leaseUntil: string, claimToken: string, limit: number): Promise<ClaimedDelivery[]> {
    let candidates = this.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('state', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .orderBy('next_attempt_at')
      .limit(limit);
    if (this.dialect === 'postgres') candidates = candidates.forUpdate().skipLocked();
    const rows = await this.db
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: leaseUntil, claim_token: claimToken })
      .where('id', 'in', candidates)
      .where('state', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .returningAll()
      .execute();
    return rows.map((row) => ({ ...toRecord(row), claimToken }));
  }

  /** When the earliest pending delivery is due, or null when none is pending. */
  async nextDueAt(): Promise<string | null> {
    const row = await this.db
      .selectFrom('webhook_deliveries')
      .select('next_attempt_at')
      .where('state', '=', 'pending')
      .orderBy('next_attempt_at')
      .limit(1)
      .executeTakeFirst();
    return row?.next_attempt_at ?? null;
  }

  /** Writes an attempt's outcome under the claim it was made with; false when the claim was lost meanwhile. */
  async settle(
    claimed: ClaimedDelivery,
    outcome: { state: DeliveryState; nextAttemptAt: string; attempt: DeliveryAttempt | null; now: string },
  ): Promise<boolean> {
    const log = outcome.attempt === null ? claimed.attemptLog : [...claimed.attemptLog, outcome.attempt];
    const result = await this.db
      .updateTable('webhook_deliveries')
      .set({
        state: outcome.state,
        attempts: log.length,
        next_attempt_at: outcome.nextAttemptAt,
        claim_token: null,
        attempt_log: JSON.stringify(log),
        updated_at: outcome.now,
      })
      .where('id', '=', claimed.id)
      .where('claim_token', '=', claimed.claimToken)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async find(accountId: string, webhookId: string, id: string, executor: Executor = this.db) {
    const row = await executor
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('webhook_id', '=', webhookId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  /** The log of one webhook, newest first. */
  async page(
    query: { webhookId: string; limit: number; beforeId?: string },
    executor: Executor = this.db,
  ): Promise<DeliveryRecord[]> {
    let builder = executor.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', query.webhookId);
    if (query.beforeId !== undefined) builder = builder.where('id', '<', query.beforeId);
    return (await builder.orderBy('id', 'desc').limit(query.limit).execute()).map(toRecord);
  }

  async deleteForWebhook(webhookId: string, executor: Executor = this.db): Promise<void> {
    await executor.deleteFrom('webhook_deliveries').where('webhook_id', '=', webhookId).execute();
  }

  /** Removes finished deliveries last changed before `cutoff`; the number removed. */
  async pruneFinishedBefore(cutoff: string): Promise<number> {
    const result = await this.db
      .deleteFrom('webhook_deliveries')
      .where('state', '!=', 'pending')
      .where('updated_at', '<', cutoff)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
