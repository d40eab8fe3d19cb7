import type { Executor } from '../schema.js';

export interface IdempotencyRecord {
  requestHash: string;
  state: 'in_progress' | 'completed';
  responseStatus: number | null;
  responseBody: string | null;
  createdAt: string;
  expiresAt: string;
}

export class IdempotencyRepository {
  constructor(private readonly db: Executor) {}

  /** Claims the key for a new request; false when a record for it already exists. */
  async claim(
    accountId: string,
    key: string,
    requestHash: string,
    createdAt: string,
    expiresAt: string,
    executor: Executor = this.db,
  ): Promise<boolean> {
    const result = await executor
      .insertInto('idempotency_keys')
      .values({
        account_id: accountId,
        idempotency_key: key,
        request_hash: requestHash,
        state: 'in_progress',
        response_status: null,
        response_body: null,
        created_at: createdAt,
        expires_at: expiresAt,
      })
      .onConflict((conflict) => conflict.columns(['account_id', 'idempotency_key']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async find(accountId: string, key: string, executor: Executor = this.db): Promise<IdempotencyRecord | null> {
    const row = await executor
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
    return row
      ? {
          requestHash: row.request_hash,
          state: row.state,
          responseStatus: row.response_status,
          responseBody: row.response_body,
          createdAt: row.created_at,
          expiresAt: row.expires_at,
        }
      : null;
  }

  async complete(
    accountId: string,
    key: string,
    status: number,
    body: string,
    executor: Executor = this.db,
  ): Promise<void> {
    await executor
      .updateTable('idempotency_keys')
      .set({ state: 'completed', response_status: status, response_body: body })
      .where('account_id', '=', accountId)
      .where('idempotency_key', '=', key)
      .execute();
  }

  /** Forgets one key (a request that failed, or a record that expired or was abandoned). */
  async release(accountId: string, key: string, createdAt: string, executor: Executor = this.db): Promise<void> {
    await executor
      .deleteFrom('idempotency_keys')
      .where('account_id', '=', accountId)
      .where('idempotency_key', '=', key)
      .where('created_at', '=', createdAt)
      .execute();
  }

  async deleteExpired(now: string, executor: Executor = this.db): Promise<number> {
    const result = await executor.deleteFrom('idempotency_keys').where('expires_at', '<', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
