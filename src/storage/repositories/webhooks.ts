import type { CommittedReader } from '../database.js';
import { PreparedQuery } from '../prepared-query.js';
import type { Database, Executor } from '../schema.js';

export interface WebhookRecord {
  id: string;
  accountId: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  /** The signing secret, sealed (security/secret-box.ts) with the webhook id as associated data. */
  sealedSecret: string;
  createdAt: string;
  updatedAt: string;
}

type WebhookRow = Database['webhooks'];

function toRecord(row: WebhookRow): WebhookRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    description: row.description,
    enabled: row.enabled === 1,
    sealedSecret: row.secret,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toRow(record: WebhookRecord): WebhookRow {
  return {
    id: record.id,
    account_id: record.accountId,
    url: record.url,
    events: JSON.stringify(record.events),
    description: record.description,
    enabled: record.enabled ? 1 : 0,
    secret: record.sealedSecret,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
  };
}

/**
 * What a webhook's `events` (a JSON array) is matched with to subscribe it to `eventType`: event types are a
 * closed list of plain names, so the quoted name matches one whole array item.
 */
export function subscriberPattern(eventType: string): string {
  return `%"${eventType}"%`;
}

/** Webhook subscriptions. Every read a client can cause filters by account. */
export class WebhookRepository {
  readonly #subscribers: PreparedQuery<{ accountId: string; pattern: string }, { id: string }>;

  constructor(
    private readonly db: Executor,
    committedReader: CommittedReader | null = null,
  ) {
    this.#subscribers = new PreparedQuery(
      (parameter) =>
        db
          .selectFrom('webhooks')
          .select('id')
          .where('account_id', '=', parameter('accountId'))
          .where('enabled', '=', 1)
          .where('events', 'like', parameter('pattern'))
          .compile(),
      committedReader,
    );
  }

  async insert(record: WebhookRecord, executor: Executor = this.db): Promise<void> {
    await executor.insertInto('webhooks').values(toRow(record)).execute();
  }

  async find(accountId: string, id: string, executor: Executor = this.db): Promise<WebhookRecord | null> {
    const row = await executor
      .selectFrom('webhooks')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  /** For the dispatcher, which works for every account. */
  async findById(id: string, executor: Executor = this.db): Promise<WebhookRecord | null> {
    const row = await executor.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async count(accountId: string, executor: Executor = this.db): Promise<number> {
    const row = await executor
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<number | string>().as('total'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  /** Newest first; `beforeId` continues after the last webhook of the previous page. */
  async page(
    query: { accountId: string; limit: number; offset?: number; beforeId?: string },
    executor: Executor = this.db,
  ): Promise<WebhookRecord[]> {
    let builder = executor.selectFrom('webhooks').selectAll().where('account_id', '=', query.accountId);
    if (query.beforeId !== undefined) builder = builder.where('id', '<', query.beforeId);
    builder = builder.orderBy('id', 'desc').limit(query.limit);
    if (query.offset !== undefined && query.offset > 0) builder = builder.offset(query.offset);
    return (await builder.execute()).map(toRecord);
  }

  /**
   * The enabled webhooks of the account subscribed to `eventType`: who gets
   * an outbox row. Asked inside the transaction of every change and stored
   * reply, so on SQLite it is answered from the committed-read cache (kept
   * until the webhooks table changes): there the transaction holds the only
   * write lock, so the committed webhooks are the ones it would read, and
   * no transaction that enqueues events writes webhooks itself.
   */
  async subscribers(accountId: string, eventType: string, executor: Executor = this.db): Promise<string[]> {
    const values = { accountId, pattern: subscriberPattern(eventType) };
    const rows = this.#subscribers.readCommittedNow(values) ?? (await this.#subscribers.execute(executor, values));
    return rows.map((row) => row.id);
  }

  async update(record: WebhookRecord, executor: Executor = this.db): Promise<boolean> {
    const { id, account_id, created_at, ...fields } = toRow(record);
    const result = await executor
      .updateTable('webhooks')
      .set(fields)
      .where('id', '=', id)
      .where('account_id', '=', account_id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async delete(accountId: string, id: string, executor: Executor = this.db): Promise<boolean> {
    const result = await executor
      .deleteFrom('webhooks')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }
}
