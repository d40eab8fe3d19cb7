import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';

const statementCacheSize = 256;
const plainSelect = /^\s*select\b/i;

/**
 * better-sqlite3 compiles a statement on every `prepare`; Kysely prepares on
 * every query. Keeping the last statements by SQL text makes repeated queries
 * reuse their compiled form. Kysely runs one query at a time per connection,
 * so a statement is never used twice at once. `onWrite` is called after every
 * statement that may have changed data (anything but a plain SELECT, COMMIT
 * included), once it has run.
 */
export function withStatementCache(database: SqliteDatabase.Database, onWrite?: () => void) {
  const cache = new Map<string, SqliteDatabase.Statement>();
  const observed = (statement: SqliteDatabase.Statement) => {
    if (onWrite === undefined || plainSelect.test(statement.source)) return statement;
    return {
      get reader() {
        return statement.reader;
      },
      all(...parameters: unknown[]) {
        const rows = statement.all(...parameters);
        onWrite();
        return rows;
      },
      run(...parameters: unknown[]) {
        const result = statement.run(...parameters);
        onWrite();
        return result;
      },
      iterate: (...parameters: unknown[]) => statement.iterate(...parameters),
    } as unknown as SqliteDatabase.Statement;
  };
  return {
    close: () => database.close(),
    prepare(sqlText: string): SqliteDatabase.Statement {
      let statement = cache.get(sqlText);
      if (statement === undefined) {
        statement = observed(database.prepare(sqlText));
        if (cache.size >= statementCacheSize) cache.delete(cache.keys().next().value as string);
        cache.set(sqlText, statement);
      }
      return statement;
    },
  };
}

/** How long a cached read may be served at most, bounding what another process's write can go unseen. */
const entryLifetimeMs = 1000;
const maxEntries = 10_000;

/**
 * The reads every request makes (the API key, the agent), on a second,
 * read-only WAL connection: committed data only, no wait for the writer, and
 * answered from memory until anything changes.
 *
 * A cached answer is dropped when this process writes (the writer connection
 * reports every write, after it ran, commits included), when the database
 * files change on disk (another process, such as `agentd keys create`), and
 * at the latest a second after it was read. Everything runs on one thread and
 * better-sqlite3 is synchronous, so no read can fall between a commit and
 * its invalidation.
 */
export class CommittedReads {
  readonly #connection: SqliteDatabase.Database;
  readonly #statements: ReturnType<typeof withStatementCache>;
  /** Cached rows by SQL text, then by parameter values. */
  readonly #entries = new Map<string, Map<string, { generation: number; expiresAt: number; rows: unknown[] }>>();
  #entryCount = 0;
  readonly #watcher: fs.FSWatcher | null;
  #generation = 0;

  constructor(file: string) {
    this.#connection = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
    this.#connection.pragma('busy_timeout = 5000');
    this.#statements = withStatementCache(this.#connection);
    const base = path.basename(file);
    try {
      this.#watcher = fs.watch(path.dirname(file), { persistent: false }, (_event, name) => {
        if (name === null || name.startsWith(base)) this.invalidate();
      });
      this.#watcher.on('error', () => this.invalidate());
    } catch {
      this.#watcher = null;
    }
  }

  /** The rows of a compiled read, from memory when nothing changed since they were read. */
  read(sqlText: string, parameters: readonly unknown[]): unknown[] {
    let entries = this.#entries.get(sqlText);
    if (entries === undefined) {
      entries = new Map();
      this.#entries.set(sqlText, entries);
    }
    const key = parameters.join('\u0000');
    const now = Date.now();
    const cached = entries.get(key);
    if (cached !== undefined && cached.generation === this.#generation && cached.expiresAt > now) return cached.rows;
    const rows = this.#statements.prepare(sqlText).all(...parameters);
    if (this.#entryCount >= maxEntries) {
      for (const map of this.#entries.values()) map.clear();
      this.#entryCount = 0;
    }
    if (cached === undefined) this.#entryCount += 1;
    entries.set(key, { generation: this.#generation, expiresAt: now + entryLifetimeMs, rows });
    return rows;
  }

  invalidate(): void {
    this.#generation += 1;
  }

  close(): void {
    this.#watcher?.close();
    this.#entries.clear();
    this.#connection.close();
  }
}
