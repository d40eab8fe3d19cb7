import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type pg from 'pg';
import * as sqliteVec from 'sqlite-vec';
import type { Logger } from 'pino';
import type { DatabaseConfig } from '../config.js';
import type { Database, Dialect } from './schema.js';
import { pgModule } from './pg-module.js';
import { withSchemaIntrospector } from './postgres-introspector.js';
import { startCheckpointer } from './sqlite-checkpointer.js';
import { CommittedReads, openSqliteConnection, withStatementCache } from './sqlite-connections.js';
import { tracedDialect } from '../tracing/database-spans.js';
import type { Tracing } from '../tracing/tracing.js';

/**
 * Runs one compiled read outside any transaction and returns its rows
 * synchronously; only committed data is visible to it.
 */
export interface CommittedReader {
  read(sqlText: string, parameters: readonly unknown[]): unknown[];
}

export interface DatabaseHandle {
  readonly db: Kysely<Database>;
  /**
   * For writes that a later commit of the same work makes durable (a running
   * run's row, which its end always follows): on PostgreSQL its connections
   * have `synchronous_commit` off, so such a commit does not wait for its WAL
   * flush (the later commit flushes it too); on SQLite it is `db`.
   */
  readonly relaxedDb: Kysely<Database>;
  readonly dialect: Dialect;
  /** SQLite only: a second, read-only connection for the reads every request makes. */
  readonly committedReader: CommittedReader | null;
  /** The PostgreSQL schema in use when it is not the default one. */
  readonly schema: string | null;
  /**
   * SQLite: hands over files that a commit about to be made will name, synced
   * before the database next syncs its WAL (sqlite-checkpointer.ts), so that
   * they are durable no later than that commit. False when nothing takes them
   * (PostgreSQL, an in-memory database, no checkpoint thread): the caller
   * syncs them itself before committing.
   */
  syncBeforeCheckpoint(paths: readonly string[]): boolean;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL schema to use instead of `public` (tests isolate themselves this way). */
  searchPath?: string;
  /** How the connections introduce themselves to PostgreSQL (pg_stat_activity), default `agentd`. */
  applicationName?: string;
  /** Where lost connections are reported; silent without one. */
  logger?: Logger;
  /** A span per statement when tracing is on. */
  tracing?: Tracing | null;
}

/**
 * Longest a query waits for a pooled connection (a busy pool, or a server that
 * does not answer the connection attempt) before it fails and is answered 503,
 * so a request never hangs past a client's own time-out because of the database.
 */
const connectionWaitMs = 5000;

/** Connections of the relaxed pool (see `DatabaseHandle.relaxedDb`), besides `poolSize`. */
export const relaxedPoolSize = 2;

/** The message and code of a connection error: pg errors carry the whole query and its parameters. */
function connectionErrorSummary(error: unknown): { message: string; code?: string } {
  const { message, code } = error as { message?: unknown; code?: unknown };
  return {
    message: typeof message === 'string' ? message : String(error),
    ...(typeof code === 'string' ? { code } : {}),
  };
}

/**
 * A pg client that is never without an 'error' listener. pg emits 'error' on a
 * client whose connection dies even while a query runs on it (and the pool only
 * listens while the client is idle), and an 'error' event without a listener
 * ends the process. The query in flight fails on its own and the pool discards
 * the broken client when it is released, so the next query gets a new connection.
 */
function clientClassReporting(onLost: (error: unknown) => void): typeof pg.Client {
  return class ListenedClient extends pgModule().Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      this.on('error', onLost);
    }
  };
}

export function openDatabase(config: DatabaseConfig, options: OpenDatabaseOptions = {}): DatabaseHandle {
  if (config.kind === 'sqlite') {
    if (config.file !== ':memory:') fs.mkdirSync(path.dirname(config.file), { recursive: true });
    const database = openSqliteConnection(config.file);
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma('busy_timeout = 5000');
    database.pragma('foreign_keys = ON');
    // The vector index of knowledge bases (vec0 tables); loaded on every connection so any may read it.
    sqliteVec.load(database);
    // The writer's statements report their writes to the read cache, which also runs its reads through them.
    let reader: CommittedReads | null = null;
    const statements = withStatementCache(database, (report) => reader?.written(report));
    reader = config.file === ':memory:' ? null : new CommittedReads(config.file, database, statements);
    const checkpointer =
      config.file === ':memory:'
        ? null
        : startCheckpointer(database, config.file, {
            onSyncFailed: (file, message) =>
              options.logger?.error({ file, message }, 'could not sync a file the database names to disk'),
          });
    const dialect = new SqliteDialect({ database: statements as unknown as SqliteDatabase.Database });
    const db = new Kysely<Database>({
      dialect: options.tracing ? tracedDialect(dialect, 'sqlite', options.tracing) : dialect,
    });
    return {
      db,
      relaxedDb: db,
      dialect: 'sqlite',
      committedReader: reader,
      schema: null,
      syncBeforeCheckpoint: (paths) => checkpointer?.syncBeforeCheckpoint(paths) ?? false,
      ping: async () => {
        await sql`select 1`.execute(db);
      },
      close: async () => {
        reader?.close();
        await checkpointer?.close();
        await db.destroy();
      },
    };
  }

  const logger = options.logger;
  const onLost = (error: unknown) =>
    logger?.warn({ err: connectionErrorSummary(error) }, 'lost a database connection; it will be replaced');
  const connectionOptions = (settings: string[]) => (settings.length > 0 ? { options: settings.join(' ') } : {});
  const searchPath = options.searchPath ? [`-c search_path=${options.searchPath}`] : [];
  const openPool = (max: number, settings: string[]) => {
    const pool = new (pgModule().Pool)({
      Client: clientClassReporting(onLost),
      connectionString: config.url,
      connectionTimeoutMillis: connectionWaitMs,
      // Notices a peer that vanished without closing the connection (a partition, a killed host).
      keepAlive: true,
      max,
      application_name: options.applicationName ?? 'agentd',
      ...connectionOptions(settings),
    });
    // The pool re-emits the error of an idle client (already reported by the client itself) and drops it.
    pool.on('error', () => undefined);
    const dialect = withSchemaIntrospector(new PostgresDialect({ pool }));
    return new Kysely<Database>({
      dialect: options.tracing ? tracedDialect(dialect, 'postgresql', options.tracing) : dialect,
    });
  };
  // Per instance: instances × (poolSize + relaxedPoolSize) must stay below the server's max_connections.
  const db = openPool(config.poolSize, searchPath);
  const relaxedDb = openPool(relaxedPoolSize, [...searchPath, '-c synchronous_commit=off']);
  return {
    db,
    relaxedDb,
    dialect: 'postgres',
    committedReader: null,
    schema: options.searchPath ?? null,
    syncBeforeCheckpoint: () => false,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: async () => {
      await Promise.all([db.destroy(), relaxedDb.destroy()]);
    },
  };
}
