import type { Kysely, Migration } from 'kysely';

/**
 * Tool turns: the tools an agent ran while answering are stored as turns of
 * their own (role `tool`) between the message and the answer, each with its
 * call (id, name, input) and result (output or error, duration) as JSON.
 */
export function toolTurnsMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('messages').addColumn('tool', 'text').execute();
    },
  };
}
