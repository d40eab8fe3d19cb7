import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import type { Database, Dialect } from './schema.js';
import { CommittedReads, withStatementCache } from './sqlite-connections.js';

/**
 * Runs one compiled read outside any transaction and returns its rows
 * synchronously; only committed data is visible to it.
 */
export interface CommittedReader {
  read(sqlText: string, parameters: readonly unknown[]): unknown[];
}

export interface DatabaseHandle {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  /** SQLite only: a second, read-only connection for the reads every request makes. */
  readonly committedReader: CommittedReader | null;
  /** The PostgreSQL schema in use when it is not the default one. */
  readonly schema: string | null;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL schema to use instead of `public` (tests isolate themselves this way). */
  searchPath?: string;
  /** How the connections introduce themselves to PostgreSQL (pg_stat_activity), default `agentd`. */
  applicationName?: string;
}

export function openDatabase(config: DatabaseConfig, options: OpenDatabaseOptions = {}): DatabaseHandle {
  if (config.kind === 'sqlite') {
    if (config.file !== ':memory:') fs.mkdirSync(path.dirname(config.file), { recursive: true });
    const database = new SqliteDatabase(config.file);
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma('busy_timeout = 5000');
    database.pragma('foreign_keys = ON');
    // The writer's statements report their writes to the read cache, which also runs its reads through them.
    let reader: CommittedReads | null = null;
    const statements = withStatementCache(database, (report) => reader?.written(report));
    reader = config.file === ':memory:' ? null : new CommittedReads(config.file, database, statements);
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: statements as unknown as SqliteDatabase.Database }),
    });
    return {
      db,
      dialect: 'sqlite',
      committedReader: reader,
      schema: null,
      ping: async () => {
        await sql`select 1`.execute(db);
      },
      close: async () => {
        reader?.close();
        await db.destroy();
      },
    };
  }

  const pool = new pg.Pool({
    connectionString: config.url,
    // Per instance: instances × poolSize must stay below the server's max_connections.
    max: config.poolSize,
    application_name: options.applicationName ?? 'agentd',
    ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
  });
  // An idle client that loses its server emits 'error' on the pool; without a
  // listener that would crash the process. The next query reconnects.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: 'postgres',
    committedReader: null,
    schema: options.searchPath ?? null,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}
