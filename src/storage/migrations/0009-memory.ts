import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../schema.js';

/**
 * Long-term memory: a rolling summary per conversation, facts per (agent,
 * user), and a full-text index over conversation turns for recall.
 *
 * `memory_conversations` holds, per stored conversation, its summary and two
 * markers: the newest turn folded into the summary and the newest user turn
 * facts were extracted from. Whatever is newer than a marker is found again
 * from the stored turns (after a restart, or a failed model call). `version`
 * is bumped by every write and checked by it (compare-and-set), so instances
 * working on the same conversation never overwrite each other's summary.
 *
 * Recall searches turns with each dialect's own full-text engine, as the
 * knowledge index does (0002): on SQLite a contentless FTS5 table kept in step
 * with `messages` by triggers (rows addressed by the messages' rowid, which
 * only a VACUUM would renumber, and agentd never runs one); on PostgreSQL a
 * generated tsvector column of `messages` with a GIN index (adding it rewrites
 * the table once, during the migration).
 */
export function memoryMigration(dialect: Dialect): Migration {
  const sortable = dialect === 'postgres' ? sql`collate "C"` : sql``;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('memory_conversations')
        .addColumn('agent_id', 'text', (column) => column.notNull().modifyEnd(sortable))
        .addColumn('conversation', 'text', (column) => column.notNull().modifyEnd(sortable))
        .addColumn('summary', 'text', (column) => column.notNull())
        .addColumn('summarized_through', 'text', (column) => column.modifyEnd(sortable))
        .addColumn('facts_through', 'text', (column) => column.modifyEnd(sortable))
        .addColumn('version', 'integer', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint('memory_conversations_pk', ['agent_id', 'conversation'])
        .execute();

      await db.schema
        .createTable('memory_facts')
        .addColumn('id', 'text', (column) => column.primaryKey().modifyEnd(sortable))
        .addColumn('agent_id', 'text', (column) => column.notNull().modifyEnd(sortable))
        .addColumn('user_id', 'text', (column) => column.notNull().modifyEnd(sortable))
        .addColumn('subject', 'text', (column) => column.notNull().modifyEnd(sortable))
        .addColumn('statement', 'text', (column) => column.notNull())
        .addColumn('source_message_id', 'text')
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .execute();
      // One fact per subject: a contradicting statement replaces the earlier one.
      await db.schema
        .createIndex('memory_facts_subject_idx')
        .on('memory_facts')
        .columns(['agent_id', 'user_id', 'subject'])
        .unique()
        .execute();

      if (dialect === 'sqlite') {
        await sql`create virtual table message_search using fts5(
          scope, text,
          content = '', contentless_delete = 1,
          tokenize = 'porter unicode61 remove_diacritics 2'
        )`.execute(db);
        // `scope` is the agent and conversation as one token (their hex), so the index itself narrows a search
        // to one conversation by a single term lookup; as words they would be a phrase of common tokens
        // ("user", the agent id's parts), each matched against every turn of the database.
        await sql`create trigger messages_searchable after insert on messages
          when new.role <> 'tool' and new.text <> '' begin
          insert into message_search (rowid, scope, text)
          values (new.rowid, hex(new.agent_id || ' ' || new.conversation), new.text);
        end`.execute(db);
        await sql`create trigger messages_unsearchable after delete on messages
          when old.role <> 'tool' and old.text <> '' begin
          delete from message_search where rowid = old.rowid;
        end`.execute(db);
        // Turns stored before this migration become searchable too.
        await sql`insert into message_search (rowid, scope, text)
          select rowid, hex(agent_id || ' ' || conversation), text from messages
          where role <> 'tool' and text <> ''`.execute(db);
      } else {
        // Stored, not an expression index: ranking and the per-conversation filter read the vector instead of
        // parsing each turn's text again (tens of microseconds a turn).
        await sql`alter table messages add column search tsvector
          generated always as (to_tsvector('english', text)) stored`.execute(db);
        await sql`create index messages_search_idx on messages using gin (search)`.execute(db);
      }
    },
  };
}
