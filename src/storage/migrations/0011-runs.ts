import { sql, type Kysely, type Migration } from 'kysely';
import { metricColumns } from '../repositories/agent-metrics-columns.js';
import type { Dialect } from '../schema.js';

/**
 * Runs: one durable record of each piece of an agent's work, whoever started
 * it (a message, a task, a platform, the OpenAI-compatible door).
 *
 * - `runs`: the record. `(task_id, due_at)` is unique, so a task's due time
 *   can be claimed by one instance only (NULLs are distinct on both dialects:
 *   runs without a task are not constrained).
 * - `run_events`: the events a run's stream sends, in batches of consecutive
 *   sequence numbers (`first_seq`..`last_seq`), so that a reply is a few rows,
 *   not a row per word. Any instance can replay them after `Last-Event-ID`;
 *   they are removed after the retention.
 * - `run_instances`: each running instance's heartbeat. A run whose instance
 *   stopped beating is ended as failed by any other instance.
 * - `agent_metrics` gains its per-trigger counters.
 */
export function runsMigration(dialect: Dialect): Migration {
  // Byte order on both dialects, as in 0001: ids sort the same everywhere, so cursors agree.
  const sortable = dialect === 'postgres' ? sql`collate "C"` : sql``;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('runs')
        .addColumn('id', 'text', (column) => column.primaryKey().modifyEnd(sortable))
        .addColumn('account_id', 'text', (column) => column.notNull())
        .addColumn('agent_id', 'text', (column) => column.notNull().modifyEnd(sortable))
        .addColumn('trigger', 'text', (column) => column.notNull())
        .addColumn('task_id', 'text', (column) => column.modifyEnd(sortable))
        .addColumn('due_at', 'text')
        .addColumn('status', 'text', (column) => column.notNull())
        .addColumn('background', 'integer', (column) => column.notNull())
        .addColumn('user_id', 'text')
        .addColumn('room_id', 'text')
        .addColumn('input', 'text', (column) => column.notNull())
        .addColumn('message_id', 'text')
        .addColumn('finish_reason', 'text')
        .addColumn('usage', 'text')
        .addColumn('result', 'text')
        .addColumn('error', 'text')
        .addColumn('event_count', 'integer', (column) => column.notNull().defaultTo(0))
        .addColumn('instance_id', 'text')
        .addColumn('cancel_requested_at', 'text')
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('started_at', 'text')
        .addColumn('finished_at', 'text')
        .execute();
      // The list order: newest first per agent. Filters by status or trigger read along it: every reply writes a
      // run, so each index more would cost every reply, for lists that are read far less often.
      await db.schema.createIndex('runs_agent_idx').on('runs').columns(['agent_id', 'id']).execute();
      await db.schema.createIndex('runs_task_due_idx').on('runs').columns(['task_id', 'due_at']).unique().execute();
      // The sweep of runs whose instance stopped: unfinished runs by instance.
      await db.schema.createIndex('runs_unfinished_idx').on('runs').columns(['status', 'instance_id']).execute();

      await db.schema
        .createTable('run_events')
        .addColumn('run_id', 'text', (column) => column.notNull().modifyEnd(sortable))
        .addColumn('first_seq', 'integer', (column) => column.notNull())
        .addColumn('last_seq', 'integer', (column) => column.notNull())
        .addColumn('events', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint('run_events_pkey', ['run_id', 'first_seq'])
        .execute();
      // The retention's prune.
      await db.schema.createIndex('run_events_created_idx').on('run_events').column('created_at').execute();

      await db.schema
        .createTable('run_instances')
        .addColumn('instance_id', 'text', (column) => column.primaryKey())
        .addColumn('seen_at', 'text', (column) => column.notNull())
        .execute();

      for (const column of metricColumns.filter((each) => each.addedIn === '0011-runs')) {
        await db.schema
          .alterTable('agent_metrics')
          .addColumn(column.name, column.wide ? 'bigint' : 'integer', (definition) => definition.notNull().defaultTo(0))
          .execute();
      }
    },
  };
}
