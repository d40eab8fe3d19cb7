import type { Kysely, Migration } from 'kysely';

/**
 * Durable runs (docs/architecture.md):
 * - `run_steps`: a run's journal, one row per completed step as it happens —
 *   `begin` (what the reply started from: the prompt as sent, the exchange's
 *   ids), `model` (a model step's full result), `tool-started` (the intent of
 *   a call with side effects, written before it runs) and `tool` (a call's
 *   result). Another instance continues a run whose instance stopped from it.
 * - `runs.request`: what a run was asked beyond its text (the message's
 *   `context`), so that a run taken over before its first step can begin again.
 * - `runs.takeovers`: how many times another instance took the run over.
 * - `runs.agent_version`: the agent's configuration version that produced the run.
 */
export function runStepsMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('run_steps')
        .addColumn('run_id', 'text', (column) => column.notNull())
        .addColumn('seq', 'integer', (column) => column.notNull())
        .addColumn('kind', 'text', (column) => column.notNull())
        .addColumn('data', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint('run_steps_pkey', ['run_id', 'seq'])
        .execute();
      await db.schema.createIndex('run_steps_created_idx').on('run_steps').column('created_at').execute();
      await db.schema.alterTable('runs').addColumn('request', 'text').execute();
      await db.schema
        .alterTable('runs')
        .addColumn('takeovers', 'integer', (column) => column.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('runs').addColumn('agent_version', 'integer').execute();
    },
  };
}
