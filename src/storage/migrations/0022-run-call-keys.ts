import type { Kysely, Migration } from 'kysely';

/**
 * The MCP call a run answers (`runs.call_key`: the call's session, or API
 * key, and JSON-RPC request id), so that a `notifications/cancelled` that
 * reaches another instance than the one producing the reply finds its run and
 * cancels it as `POST …/runs/{id}/cancel` does. The index is partial: runs of
 * other triggers have no key and cost it nothing.
 */
export function runCallKeysMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('runs').addColumn('call_key', 'text').execute();
      await db.schema
        .createIndex('runs_call_key_idx')
        .on('runs')
        .columns(['account_id', 'call_key'])
        .where('call_key', 'is not', null)
        .execute();
    },
  };
}
