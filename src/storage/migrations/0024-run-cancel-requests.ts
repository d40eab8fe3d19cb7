import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The runs someone asked to cancel, by the instance producing them: every
 * heartbeat, an instance reads its own (`runs.cancelRequested`) with one
 * lookup in this index rather than by naming each of its live runs, which
 * cost a statement with as many parameters as it had runs (10,000 open streams,
 * 10,000 parameters every two seconds). Partial: runs nobody cancelled cost
 * it nothing.
 */
export function runCancelRequestsMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex('runs_cancel_requested_idx')
        .on('runs')
        .columns(['instance_id', 'status'])
        .where(sql.ref('cancel_requested_at'), 'is not', null)
        .execute();
    },
  };
}
