import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../schema.js';

/**
 * Faster memory reads on PostgreSQL, where a prompt of a long conversation
 * spent most of its time in recall and in reading every fact of the user.
 *
 * - `messages.search` gains the conversation's scope as one extra lexeme
 *   (`s` + the MD5 of agent id and conversation, in the `simple`
 *   configuration), so the GIN index itself narrows a search to one
 *   conversation, as the scope token of SQLite's FTS5 table does (0009),
 *   instead of intersecting with every turn of the conversation read from the
 *   b-tree. Recreating the generated column rewrites the table once. The
 *   index is built without GIN's pending list (`fastupdate = off`): with it,
 *   every search also read up to 4 MB of recently added entries one by one
 *   (5 ms a term after a few thousand new turns), while adding a turn's
 *   dozen words straight to the index costs its insert little.
 * - `memory_facts` gains an index by recency per (agent, user), and on
 *   PostgreSQL `search`, subject and statement lower-cased, kept by the
 *   database: a prompt reads the most recent facts and those containing a
 *   word of the message, not every fact of the user. SQLite lower-cases
 *   inline, which costs it little.
 */
export function memorySearchMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      // A prompt's candidate facts are lists of the most recently confirmed: each is a backward scan of this index.
      await db.schema
        .createIndex('memory_facts_recent_idx')
        .on('memory_facts')
        .columns(['agent_id', 'user_id', 'updated_at'])
        .execute();
      if (dialect !== 'postgres') return;
      await sql`drop index messages_search_idx`.execute(db);
      await sql`alter table messages drop column search`.execute(db);
      await sql`alter table messages add column search tsvector generated always as (
        to_tsvector('simple', 's' || md5(agent_id || ' ' || conversation)) || to_tsvector('english', text)) stored`.execute(
        db,
      );
      await sql`create index messages_search_idx on messages using gin (search) with (fastupdate = off)`.execute(db);
      await sql`alter table memory_facts add column search text
        generated always as (lower(subject || ' ' || statement)) stored`.execute(db);
    },
  };
}
