import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../schema.js';

/**
 * Conversation history by speaker within a room, and the knowledge index.
 *
 * Knowledge items are rows of `knowledge_items` on both dialects (written with
 * the same queries); each dialect indexes them with its own full-text engine:
 * SQLite an FTS5 table kept in step by triggers, PostgreSQL a generated
 * tsvector column with a GIN index. `search_id` is a storage-internal integer
 * key because FTS5 addresses rows by integer; it never leaves the repository.
 */
export function conversationsMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex('messages_conversation_user_idx')
        .on('messages')
        .columns(['agent_id', 'conversation', 'user_id', 'id'])
        .execute();

      if (dialect === 'sqlite') {
        await sql`create table knowledge_items (
          search_id integer primary key,
          agent_id text not null,
          position integer not null,
          title text,
          content text not null
        )`.execute(db);
        // Porter stemming (English) on both engines, so "fees" finds "fee" on either.
        await sql`create virtual table knowledge_search using fts5(
          agent_id, title, content,
          content = 'knowledge_items', content_rowid = 'search_id',
          tokenize = 'porter unicode61 remove_diacritics 2'
        )`.execute(db);
        await sql`create trigger knowledge_items_indexed after insert on knowledge_items begin
          insert into knowledge_search (rowid, agent_id, title, content)
          values (new.search_id, new.agent_id, coalesce(new.title, ''), new.content);
        end`.execute(db);
        await sql`create trigger knowledge_items_unindexed after delete on knowledge_items begin
          insert into knowledge_search (knowledge_search, rowid, agent_id, title, content)
          values ('delete', old.search_id, old.agent_id, coalesce(old.title, ''), old.content);
        end`.execute(db);
      } else {
        await sql`create table knowledge_items (
          search_id bigint generated always as identity primary key,
          agent_id text not null,
          position integer not null,
          title text,
          content text not null,
          search tsvector generated always as (
            setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', content), 'B')
          ) stored
        )`.execute(db);
        await sql`create index knowledge_items_search_idx on knowledge_items using gin (search)`.execute(db);
      }
      await db.schema
        .createIndex('knowledge_items_agent_idx')
        .on('knowledge_items')
        .columns(['agent_id', 'position'])
        .unique()
        .execute();
    },
  };
}
