import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';

const statementCacheSize = 256;

/**
 * Each connection's page cache, in KiB. better-sqlite3 builds SQLite with a
 * default of 16 MiB per connection, which a growing database fills a page at a
 * time: under steady traffic the process's memory then keeps rising for as long
 * as the file grows, up to 32 MiB for the two connections (the soak in
 * bench/README.md measured it as the allocator's heap growing). SQLite's own
 * default of about 2 MiB bounds it early; the reads every request makes are
 * answered from the committed-read cache in memory, and pages beyond the cache
 * come from the operating system's file cache.
 */
export const pageCacheKiB = 2048;

/** A SQLite connection with agentd's bound on its page cache. */
export function openSqliteConnection(file: string, options?: SqliteDatabase.Options): SqliteDatabase.Database {
  const connection = new SqliteDatabase(file, options);
  connection.pragma(`cache_size = -${pageCacheKiB}`);
  return connection;
}
const plainSelect = /^\s*select\b/i;
const commonTableExpression = /^\s*with\b/i;

/**
 * A statement that changes nothing: a plain SELECT, or a `with …` query that
 * SQLite itself says only reads (sqlite3_stmt_readonly; a `with …` INSERT or
 * UPDATE is not). Reporting a read as a write of unknown tables would drop
 * every cached read, as the memory's recall search (a `with …` query run for
 * every message) did.
 */
function isRead(statement: SqliteDatabase.Statement): boolean {
  return plainSelect.test(statement.source) || (commonTableExpression.test(statement.source) && statement.readonly);
}
/** A statement that changes one table: the table it names (`with …` and the like are not recognised). */
const tableWrite =
  /^\s*(?:insert(?:\s+or\s+\w+)?\s+into|replace\s+into|update(?:\s+or\s+\w+)?|delete\s+from)\s+["`[]?(\w+)/i;
const transactionControl = /^\s*(?:begin|commit|end|rollback|savepoint|release)\b/i;

/** What a statement run on the writer connection may have changed, reported once it has run. */
export type WriteReport =
  | { kind: 'table'; table: string }
  /** The end of a transaction (its changes become visible to other connections now). */
  | { kind: 'transaction-end' }
  /** Anything else that is not a plain SELECT: schema changes, pragmas, statements not recognised. */
  | { kind: 'unknown' };

function reportOf(sqlText: string): WriteReport {
  const write = tableWrite.exec(sqlText);
  if (write !== null) return { kind: 'table', table: write[1]!.toLowerCase() };
  if (transactionControl.test(sqlText)) return { kind: 'transaction-end' };
  return { kind: 'unknown' };
}

/**
 * better-sqlite3 compiles a statement on every `prepare`; Kysely prepares on
 * every query. Keeping the last statements by SQL text makes repeated queries
 * reuse their compiled form. Kysely runs one query at a time per connection,
 * so a statement is never used twice at once. `onWrite` is called after every
 * statement that may have changed data (anything but a plain SELECT, COMMIT
 * included), once it has run, with what it changed.
 */
export type StatementCache = ReturnType<typeof withStatementCache>;

export function withStatementCache(database: SqliteDatabase.Database, onWrite?: (report: WriteReport) => void) {
  const cache = new Map<string, SqliteDatabase.Statement>();
  const observed = (statement: SqliteDatabase.Statement) => {
    if (onWrite === undefined || isRead(statement)) return statement;
    const report = reportOf(statement.source);
    return {
      get reader() {
        return statement.reader;
      },
      all(...parameters: unknown[]) {
        const rows = statement.all(...parameters);
        onWrite(report);
        return rows;
      },
      run(...parameters: unknown[]) {
        const result = statement.run(...parameters);
        onWrite(report);
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

/**
 * What the cache holds at most, in rows (an empty answer counts as one): a
 * cached list page holds up to a hundred agents where a lookup holds one.
 */
const maxRows = 10_000;
const weightOf = (rows: readonly unknown[]) => Math.max(1, rows.length);
/** How long a cached read may be served at most, bounding what another process's write can go unseen. */
const entryLifetimeMs = 1000;
/**
 * How often expired entries are dropped. Without it they stayed until the
 * cache reached its bound and was cleared whole: bounded, but under steady
 * traffic with ever new keys (agents created and deleted) it read as slow
 * growth, and it kept deleted agents' rows alive.
 */
const sweepEveryMs = 5 * entryLifetimeMs;
/** The tables a read takes its rows from. */
const readTable = /\b(?:from|join)\s+["`[]?(\w+)/gi;

interface CachedRead {
  /** The tables the read's SQL names (lower case). */
  tables: string[];
  rows: Map<string, { readAt: number; expiresAt: number; rows: unknown[] }>;
}

/**
 * The reads every request makes (the API key, the agent, its knowledge, the
 * conversation's history), synchronously and of committed data only: on the
 * writer connection when it has no transaction open, else on a second,
 * read-only WAL connection (no wait for the writer); and answered from memory
 * until a table they read from changes.
 *
 * This process's writes are reported by the writer connection after they
 * ran (ends of transactions included) with the table they changed; that
 * table, the tables its triggers write and those whose foreign keys point at
 * it (cascades) are then read afresh. A change the report cannot name (a
 * schema change, say) drops everything. Everything runs on one thread and
 * better-sqlite3 is synchronous, so no read can fall between a commit and its
 * report.
 *
 * Another process's commits (`agentd keys create`, say) drop everything when
 * the file system reports a change to the database files and the writer's
 * `PRAGMA data_version` (which changes exactly when another connection has
 * committed) says it was not this process's own write; normally before the
 * next request. Checking the version before every read instead costs several
 * microseconds each (a read transaction and its locks). As a bound where
 * change reports are late or missing, a cached read is served for a second
 * at most.
 */
export class CommittedReads {
  readonly #connection: SqliteDatabase.Database;
  readonly #statements: StatementCache;
  readonly #writer: SqliteDatabase.Database;
  readonly #writerStatements: StatementCache;
  readonly #dataVersion: SqliteDatabase.Statement;
  #lastDataVersion: unknown;
  readonly #reads = new Map<string, CachedRead>();
  #rowCount = 0;
  #sweptAt: number;
  readonly #now: () => number;
  /** Bumped by every invalidation; a cached read is good while nothing it reads from was invalidated after it. */
  #clock = 1;
  #everythingChangedAt = 0;
  readonly #tableChangedAt = new Map<string, number>();
  /** Tables changed in the writer's open transaction, changed again when it ends. */
  readonly #inTransaction = new Set<string>();
  #unknownInTransaction = false;
  /** Per table, every table a write to it may change (itself, by triggers, by cascades); built from the schema when needed. */
  #affected: Map<string, string[]> | null = null;
  readonly #watcher: fs.FSWatcher | null;
  /** A change to the files was reported while the writer had a transaction open: check when it ends. */
  #foreignCheckPending = false;
  #foreignCheckScheduled = false;

  /** `writerStatements`: the writer connection's statement cache, the one its queries go through. */
  /** `now`: the time source for entries' lifetimes (settable in tests). */
  constructor(
    file: string,
    writer: SqliteDatabase.Database,
    writerStatements: StatementCache,
    now: () => number = Date.now,
  ) {
    this.#now = now;
    this.#sweptAt = now();
    this.#connection = openSqliteConnection(file, { readonly: true, fileMustExist: true });
    this.#connection.pragma('busy_timeout = 5000');
    // The schema holds vec0 tables (knowledge bases' vectors), which this connection must be able to open.
    sqliteVec.load(this.#connection);
    this.#statements = withStatementCache(this.#connection);
    this.#writer = writer;
    this.#writerStatements = writerStatements;
    this.#dataVersion = writer.prepare('pragma data_version').pluck();
    this.#lastDataVersion = this.#dataVersion.get();
    const base = path.basename(file);
    try {
      this.#watcher = fs.watch(path.dirname(file), { persistent: false }, (_event, name) => {
        if (name === null || name.startsWith(base)) this.#foreignChangeReported();
      });
      this.#watcher.on('error', () => this.#everythingChanged());
    } catch {
      this.#watcher = null;
    }
  }

  /** The rows of a compiled read, from memory when nothing it reads from changed since they were read. */
  read(sqlText: string, parameters: readonly unknown[]): unknown[] {
    let read = this.#reads.get(sqlText);
    if (read === undefined) {
      const tables = [...sqlText.matchAll(readTable)].map((match) => match[1]!.toLowerCase());
      read = { tables: [...new Set(tables)], rows: new Map() };
      this.#reads.set(sqlText, read);
    }
    const key = parameters.join('\u0000');
    const cached = read.rows.get(key);
    const now = this.#now();
    if (cached !== undefined && cached.expiresAt > now && this.#isCurrent(read.tables, cached.readAt)) {
      return cached.rows;
    }
    // The writer's page cache stays warm across its own writes, where the read connection's is
    // dropped by each of them; while it has a transaction open, its uncommitted rows must not be read.
    const statements = this.#writer.inTransaction ? this.#statements : this.#writerStatements;
    const rows = statements.prepare(sqlText).all(...parameters);
    if (now - this.#sweptAt >= sweepEveryMs) this.#dropExpired(now);
    if (this.#rowCount >= maxRows) {
      for (const each of this.#reads.values()) each.rows.clear();
      this.#rowCount = 0;
    } else if (cached !== undefined) {
      this.#rowCount -= weightOf(cached.rows);
    }
    this.#rowCount += weightOf(rows);
    read.rows.set(key, { readAt: this.#clock, expiresAt: now + entryLifetimeMs, rows });
    return rows;
  }

  /** Called with every write report of the writer connection. */
  written(report: WriteReport): void {
    if (report.kind === 'unknown') {
      this.#everythingChanged();
      this.#unknownInTransaction = true;
    } else if (report.kind === 'transaction-end') {
      for (const table of this.#inTransaction) this.#tableChanged(table);
      this.#inTransaction.clear();
      // A schema change becomes visible to the read connection only now.
      if (this.#unknownInTransaction) this.#everythingChanged();
      this.#unknownInTransaction = false;
      // Another process's commit reported during the transaction could not be seen from inside it.
      if (this.#foreignCheckPending) {
        this.#foreignCheckPending = false;
        this.#checkForeignCommits();
      }
    } else {
      for (const table of this.#affectedBy(report.table)) {
        this.#tableChanged(table);
        this.#inTransaction.add(table);
      }
    }
  }

  /** Rows held in memory (for tests and diagnostics). */
  get cachedRows(): number {
    return this.#rowCount;
  }

  #dropExpired(now: number): void {
    this.#sweptAt = now;
    for (const read of this.#reads.values()) {
      for (const [key, entry] of read.rows) {
        if (entry.expiresAt > now) continue;
        read.rows.delete(key);
        this.#rowCount -= weightOf(entry.rows);
      }
    }
  }

  close(): void {
    this.#watcher?.close();
    this.#reads.clear();
    this.#connection.close();
  }

  /**
   * The files changed: this process's own commit (each reports two or three
   * changes) or another's. One check per turn of the event loop, and none
   * inside a transaction (it could not see another commit from there): the
   * version check is a read transaction of its own, a few dozen microseconds.
   */
  #foreignChangeReported(): void {
    if (this.#foreignCheckScheduled) return;
    this.#foreignCheckScheduled = true;
    setImmediate(() => {
      this.#foreignCheckScheduled = false;
      if (this.#writer.inTransaction) this.#foreignCheckPending = true;
      else this.#checkForeignCommits();
    });
  }

  #checkForeignCommits(): void {
    let dataVersion: unknown;
    try {
      dataVersion = this.#dataVersion.get();
    } catch {
      // Closed, or locked for longer than the busy time-out: assume the worst.
      this.#everythingChanged();
      return;
    }
    if (dataVersion !== this.#lastDataVersion) {
      this.#lastDataVersion = dataVersion;
      this.#everythingChanged();
    }
  }

  #isCurrent(tables: readonly string[], readAt: number): boolean {
    if (this.#everythingChangedAt >= readAt) return false;
    for (const table of tables) if ((this.#tableChangedAt.get(table) ?? 0) >= readAt) return false;
    return true;
  }

  #tableChanged(table: string): void {
    this.#clock += 1;
    this.#tableChangedAt.set(table, this.#clock);
    this.#clock += 1;
  }

  #everythingChanged(): void {
    this.#clock += 1;
    this.#everythingChangedAt = this.#clock;
    this.#clock += 1;
    this.#affected = null;
  }

  #affectedBy(table: string): string[] {
    this.#affected ??= this.#readDependencies();
    return this.#affected.get(table) ?? [table];
  }

  /** From the committed schema: which tables a write to each table may change. */
  #readDependencies(): Map<string, string[]> {
    const direct = new Map<string, Set<string>>();
    const link = (from: string, to: string) => {
      const key = from.toLowerCase();
      if (!direct.has(key)) direct.set(key, new Set());
      direct.get(key)!.add(to.toLowerCase());
    };
    const tables = this.#connection
      .prepare("select name from sqlite_master where type = 'table'")
      .pluck()
      .all() as string[];
    const foreignKeys = this.#connection.prepare('select "table" from pragma_foreign_key_list(?)').pluck();
    for (const table of tables) for (const parent of foreignKeys.all(table) as string[]) link(parent, table);
    const triggers = this.#connection
      .prepare("select tbl_name as owner, sql from sqlite_master where type = 'trigger'")
      .all() as Array<{ owner: string; sql: string }>;
    const triggerWrite = /\b(?:into|update|from)\s+["`[]?(\w+)/gi;
    for (const trigger of triggers) {
      const body = trigger.sql.slice(trigger.sql.search(/\bbegin\b/i));
      for (const match of body.matchAll(triggerWrite)) link(trigger.owner, match[1]!);
    }
    const affected = new Map<string, string[]>();
    for (const table of tables.map((name) => name.toLowerCase())) {
      const seen = new Set<string>([table]);
      const pending = [table];
      while (pending.length > 0) {
        for (const next of direct.get(pending.pop()!) ?? []) {
          if (!seen.has(next)) {
            seen.add(next);
            pending.push(next);
          }
        }
      }
      affected.set(table, [...seen]);
    }
    return affected;
  }
}
