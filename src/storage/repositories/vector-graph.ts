import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { sql, type Kysely } from 'kysely';
import * as sqliteVec from 'sqlite-vec';
import usearch, { type Index as UsearchIndex } from 'usearch';
import { openSqliteConnection } from '../sqlite-connections.js';
import type { Database, Executor } from '../schema.js';

/**
 * The approximate index of a SQLite vector table (`vec0`): an HNSW graph (usearch) over every partition, kept in
 * memory and saved to a file beside the database, derived from the rows and never trusted over them.
 *
 * - **The rows stay the source of truth.** Every insert and delete of the table also appends to its change log
 *   (`<table>_changes`, same transaction, sequence by AUTOINCREMENT), so a change is logged exactly when it
 *   commits. The graph records the last change it holds (its high-water mark) and applies the log after it
 *   before each search; it is used only when it has caught up with the log at that moment, so a deleted chunk
 *   is never returned and a new one is never missed, whichever process wrote them.
 * - **The file** (`<table>.usearch`, with `<table>.usearch.json`: high-water mark, partitions of the keys and
 *   the graph's SHA-256) is written to temporary names and renamed. Missing, unreadable, of another width or
 *   not matching its checksum: the graph is rebuilt from the rows, in the background, searches staying exact
 *   meanwhile. Saved after enough changes and on close; the change log is trimmed to what the file holds, and a
 *   process that finds the log trimmed past its own mark reloads the file (or rebuilds).
 * - **Small tables have no graph**: it is built once the table holds `buildFrom` rows; exact search is fast
 *   enough below that and costs no memory.
 * - **Filters by partition after the graph search**: it asks for enough candidates that `limit` of the
 *   partitions searched are among them (`limit` / their share of the graph, doubled), and asks again, wider,
 *   when they are not. Partitions small enough for an exact comparison (`exactRows`) are left to the caller.
 */
export interface VectorGraphOptions {
  /**
   * The SQLite database file: builds read the table through a read-only connection of their own, and the graph
   * is saved beside it (`<table>.usearch`). Null (a database in memory): the graph stays in memory.
   */
  databaseFile: string | null;
  /** The table's row count from which a graph is built (default 20,000). */
  buildFrom?: number;
  /** Up to how many rows the partitions searched are better compared exactly, for a graph of `rows` rows. */
  exactRows?: (rows: number) => number;
  /** Changes applied between saves of the file (default 10,000). */
  saveEvery?: number;
  /** Errors of the background work (the search stays exact meanwhile). */
  onError?: (error: unknown, action: string) => void;
}

/** HNSW parameters: usearch's connectivity (M) 16; a wider build (128) and search (`searchBreadth`) than its defaults. */
const connectivity = 16;
const buildBreadth = 128;
/** The fewest candidates a graph search considers (usearch's expansion_search); more for large graphs. */
const searchBreadth = (rows: number) => (rows > 500_000 ? 128 : 64);
/** Changes applied inside a search; a longer backlog is applied in the background while searches stay exact. */
const inlineChanges = 256;
/** Rows added to the graph per turn of the event loop (each turn blocks it for a few ms to tens of ms). */
const rowsPerTurn = 256;
const fileFormat = 1;

interface GraphFileHeader {
  format: number;
  /** The database's token (`<table>_graph`). */
  token: string;
  table: string;
  dimensions: number;
  highWater: number;
  sha256: string;
  /** Keys grouped by partition. */
  partitions: Record<string, number[]>;
}

interface Change {
  seq: number;
  key: number;
  partition: string | null;
  removed: number;
}

/** SHA-256 of a file, read in parts (a graph of a million rows is over a gigabyte). */
function fileDigest(file: string): string {
  const hash = createHash('sha256');
  const part = Buffer.allocUnsafe(8 * 1024 * 1024);
  const descriptor = fs.openSync(file, 'r');
  try {
    for (;;) {
      const read = fs.readSync(descriptor, part, 0, part.length, null);
      if (read === 0) break;
      hash.update(part.subarray(0, read));
    }
  } finally {
    fs.closeSync(descriptor);
  }
  return hash.digest('hex');
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class VectorGraph {
  readonly changesTable: string;
  readonly identityTable: string;
  #token = '';
  /** The graph file, null when kept in memory only. */
  readonly file: string | null;
  #index: UsearchIndex | null = null;
  /** The last change of the log the graph holds; -1 when there is no graph. */
  #highWater = -1;
  /** Each key's partition, and each partition's row count: the filter and the shares. */
  #partitionOf = new Map<number, string>();
  #rowsOf = new Map<string, number>();
  #sinceSave = 0;
  /** Background work (building, catching up) in progress: one at a time. */
  #work: Promise<void> | null = null;
  #closed = false;
  /** The change log was trimmed past the graph's mark: the saved graph is to be loaded again. */
  #reloadWanted = false;
  /** The change log being trimmed after a save. */
  #trimming: Promise<void> | null = null;
  /** Without a graph: the log's latest change when the table's size was last checked. */
  #checkedAt = 0;
  readonly #buildFrom: number;
  readonly #exactRows: (rows: number) => number;
  readonly #saveEvery: number;

  constructor(
    private readonly db: Kysely<Database>,
    readonly table: string,
    /** The `vec0` table's partition key column. */
    private readonly partitionColumn: string,
    readonly dimensions: number,
    private readonly options: VectorGraphOptions,
  ) {
    this.changesTable = `${table}_changes`;
    this.identityTable = `${table}_graph`;
    this.file = options.databaseFile === null ? null : `${options.databaseFile}-${table}.usearch`;
    this.#buildFrom = options.buildFrom ?? 20_000;
    this.#exactRows = options.exactRows ?? ((rows) => Math.max(10_000, Math.ceil(rows / 50)));
    this.#saveEvery = options.saveEvery ?? 10_000;
  }

  /** Whether searches may use the graph now (built, or loaded), before catching up. */
  get ready(): boolean {
    return this.#index !== null;
  }

  /** Rows in the graph. */
  get size(): number {
    return this.#partitionOf.size;
  }

  /** Creates the change log; loads the graph file or starts rebuilding it from the rows in the background. */
  async open(): Promise<void> {
    await sql`create table if not exists ${sql.table(this.changesTable)} (
      seq integer primary key autoincrement,
      key integer not null,
      partition text,
      removed integer not null
    )`.execute(this.db);
    // Which database a graph file belongs to: a file beside a copy of another database is not used.
    await sql`create table if not exists ${sql.table(this.identityTable)} (
      id integer primary key check (id = 1),
      token text not null
    )`.execute(this.db);
    await sql`insert into ${sql.table(this.identityTable)} (id, token) values (1, ${randomUUID()})
      on conflict (id) do nothing`.execute(this.db);
    const { rows } = await sql<{ token: string }>`select token from ${sql.table(this.identityTable)}`.execute(this.db);
    this.#token = rows[0]!.token;
    if (this.file !== null && (await this.#loadCurrent(this.file))) {
      // A short backlog (a crash after rows were written) is applied before the first search; a long one after.
      if (!(await this.#catchUp(inlineChanges)))
        this.#background('catch up', () => this.#catchUp(Number.POSITIVE_INFINITY));
      return;
    }
    this.#checkedAt = await this.#latestChange(this.db);
    this.#background('build', () => this.#buildIfLarge());
  }

  /**
   * Without a graph, whether the table has grown enough for one is checked again once the log has grown by a
   * tenth of `buildFrom` (one small read per search, none of the table).
   */
  async #checkGrowth(executor: Executor): Promise<void> {
    const latest = await this.#latestChange(executor);
    if (latest - this.#checkedAt < Math.max(1, this.#buildFrom / 10) || this.#closed) return;
    this.#checkedAt = latest;
    this.#background('build', () => this.#buildIfLarge());
  }

  /** Waits for the background work started so far (tests and benchmarks). */
  async settled(): Promise<void> {
    while (this.#work || this.#trimming) {
      await this.#work;
      await this.#trimming;
    }
  }

  /** Records changes in the log, in the caller's transaction (the one writing the rows). */
  async logInserted(rows: ReadonlyArray<{ key: number; partition: string }>, executor: Executor): Promise<void> {
    for (let start = 0; start < rows.length; start += 300) {
      const batch = rows.slice(start, start + 300);
      await sql`insert into ${sql.table(this.changesTable)} (key, partition, removed) values ${sql.join(
        batch.map((row) => sql`(${row.key}, ${row.partition}, 0)`),
      )}`.execute(executor);
    }
  }

  async logDeleted(keys: readonly number[], executor: Executor): Promise<void> {
    for (let start = 0; start < keys.length; start += 300) {
      const batch = keys.slice(start, start + 300);
      await sql`insert into ${sql.table(this.changesTable)} (key, partition, removed) values ${sql.join(
        batch.map((key) => sql`(${key}, null, 1)`),
      )}`.execute(executor);
    }
  }

  /**
   * The `limit` nearest rows of these partitions by the graph, nearest first; null when the caller should
   * compare exactly: no graph (yet), a backlog of changes being applied, or partitions small enough.
   */
  async search(
    partitions: readonly string[],
    vector: Float32Array,
    limit: number,
    executor: Executor,
  ): Promise<Array<{ key: number; distance: number }> | null> {
    if (this.#index === null || this.#work !== null) {
      if (this.#index === null && this.#work === null) {
        if (this.#reloadWanted) this.#startReload();
        else await this.#checkGrowth(executor);
      }
      return null;
    }
    if (!(await this.#catchUp(inlineChanges, executor))) {
      this.#background('catch up', () => this.#catchUp(Number.POSITIVE_INFINITY));
      return null;
    }
    const index = this.#index;
    if (index === null) return null;
    const total = this.#partitionOf.size;
    const wanted = new Set(partitions);
    let rows = 0;
    for (const partition of wanted) rows += this.#rowsOf.get(partition) ?? 0;
    if (rows <= this.#exactRows(total)) return null;
    // Candidates enough for `limit` of these partitions at their share, twice over; wider when short.
    let candidates = Math.min(total, Math.max(searchBreadth(total), Math.ceil((2 * limit * total) / rows) + limit));
    for (;;) {
      const found = index.search(vector, candidates, 1);
      const matches: Array<{ key: number; distance: number }> = [];
      for (let position = 0; position < found.keys.length && matches.length < limit; position += 1) {
        const key = Number(found.keys[position]);
        const partition = this.#partitionOf.get(key);
        if (partition !== undefined && wanted.has(partition))
          matches.push({ key, distance: found.distances[position]! });
      }
      if (matches.length >= limit || candidates >= total) return matches;
      candidates = Math.min(total, candidates * 4);
    }
  }

  /** Saves the graph (when there is one) and stops background work. */
  async close(): Promise<void> {
    // Background work stops at its next step (a build of a large table would otherwise hold the shutdown).
    this.#closed = true;
    await this.settled();
    if (this.#index !== null && this.#sinceSave > 0) this.#save();
  }

  #background(action: string, work: () => Promise<unknown>): void {
    if (this.#work !== null || this.#closed) return;
    this.#work = work()
      .then(() => undefined)
      .catch((error: unknown) => {
        this.#discard();
        this.options.onError?.(error, action);
      })
      .finally(() => {
        this.#work = null;
      });
  }

  #discard(): void {
    this.#index = null;
    this.#highWater = -1;
    this.#partitionOf = new Map();
    this.#rowsOf = new Map();
  }

  #newIndex(): UsearchIndex {
    return new usearch.Index({
      dimensions: this.dimensions,
      metric: usearch.MetricKind.Cos,
      quantization: usearch.ScalarKind.F32,
      connectivity,
      expansion_add: buildBreadth,
      expansion_search: 64,
      multi: false,
    });
  }

  #track(key: number, partition: string): void {
    const previous = this.#partitionOf.get(key);
    if (previous !== undefined) this.#rowsOf.set(previous, this.#rowsOf.get(previous)! - 1);
    this.#partitionOf.set(key, partition);
    this.#rowsOf.set(partition, (this.#rowsOf.get(partition) ?? 0) + 1);
  }

  #untrack(key: number): void {
    const partition = this.#partitionOf.get(key);
    if (partition === undefined) return;
    this.#partitionOf.delete(key);
    const left = this.#rowsOf.get(partition)! - 1;
    if (left === 0) this.#rowsOf.delete(partition);
    else this.#rowsOf.set(partition, left);
  }

  /** The latest change logged (0 when none ever was). */
  async #latestChange(executor: Executor): Promise<number> {
    const { rows } = await sql<{ seq: number | null }>`
      select seq from sqlite_sequence where name = ${this.changesTable}`.execute(executor);
    return Number(rows[0]?.seq ?? 0);
  }

  /** Builds the graph from every row of the table, when it holds at least `buildFrom`; then catches up. */
  async #buildIfLarge(): Promise<void> {
    // The mark first: rows changed after it are in the log after it and replayed by the catch-up (applying a
    // change again leaves the graph as the row is).
    const highWater = await this.#latestChange(this.db);
    const { rows: counted } = await sql<{ rows: number }>`
      select count(*) as rows from ${sql.table(this.table)}`.execute(this.db);
    if (Number(counted[0]!.rows) < this.#buildFrom) return;
    this.#discard();
    const index = this.#newIndex();
    const partitionOf = new Map<number, string>();
    for await (const rows of this.#allRows()) {
      if (this.#closed) return;
      const keys = new BigUint64Array(rows.length);
      const vectors = new Float32Array(rows.length * this.dimensions);
      rows.forEach((row, position) => {
        keys[position] = BigInt(row.rowid);
        vectors.set(this.#vectorOf(row.embedding), position * this.dimensions);
        partitionOf.set(Number(row.rowid), row.partition);
      });
      index.add(keys, vectors, 1);
      await turn();
    }
    this.#index = index;
    this.#highWater = highWater;
    for (const [key, partition] of partitionOf) this.#track(key, partition);
    this.#sinceSave = partitionOf.size;
    await this.#catchUp(Number.POSITIVE_INFINITY);
    this.#saveIfDue(true);
  }

  /**
   * Every row of the table, `rowsPerTurn` at a time. From a file: one scan through a read-only connection of its
   * own (`vec0` answers a range of rowids by scanning, so reading in ranges would be quadratic), which leaves the
   * writer free while a large graph is built. In memory: one read.
   */
  async *#allRows(): AsyncGenerator<Array<{ rowid: number; partition: string; embedding: Uint8Array }>> {
    const query = `select rowid, ${this.partitionColumn} as partition, embedding from ${this.table}`;
    if (this.options.databaseFile === null) {
      const { rows } = await sql<{ rowid: number; partition: string; embedding: Uint8Array }>`${sql.raw(
        query,
      )}`.execute(this.db);
      for (let start = 0; start < rows.length; start += rowsPerTurn) yield rows.slice(start, start + rowsPerTurn);
      return;
    }
    const connection = openSqliteConnection(this.options.databaseFile, { readonly: true, fileMustExist: true });
    try {
      sqliteVec.load(connection);
      let batch: Array<{ rowid: number; partition: string; embedding: Uint8Array }> = [];
      for (const row of connection.prepare(query).iterate() as Iterable<{
        rowid: number;
        partition: string;
        embedding: Uint8Array;
      }>) {
        batch.push(row);
        if (batch.length === rowsPerTurn) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    } finally {
      connection.close();
    }
  }

  #vectorOf(embedding: Uint8Array): Float32Array {
    return new Float32Array(embedding.buffer.slice(embedding.byteOffset, embedding.byteOffset + embedding.byteLength));
  }

  /**
   * Applies the log after the graph's mark, up to `most` changes; false when more are left (or the log was
   * trimmed past the mark: the graph is then reloaded or rebuilt in the background).
   */
  async #catchUp(most: number, executor: Executor = this.db): Promise<boolean> {
    for (let applied = 0; ;) {
      if (this.#index === null || this.#closed) return false;
      const from = this.#highWater;
      const batch = Math.min(rowsPerTurn, most - applied + 1);
      const { rows: changes } = await sql<Change>`
        select seq, key, partition, removed from ${sql.table(this.changesTable)}
        where seq > ${from} order by seq limit ${batch}`.execute(executor);
      if (changes.length === 0) {
        if ((await this.#latestChange(executor)) > from) return this.#trimmedPast();
        return true;
      }
      // The sequence has no gaps (a rolled-back change gives its number back), but for the trimmed log.
      if (changes[0]!.seq !== from + 1) return this.#trimmedPast();
      if (applied + changes.length > most) return false;
      await this.#apply(changes, executor);
      applied += changes.length;
      if (changes.length < batch) return true;
      if (most === Number.POSITIVE_INFINITY) await turn();
    }
  }

  #trimmedPast(): false {
    this.#discard();
    this.#reloadWanted = true;
    queueMicrotask(() => this.#startReload());
    return false;
  }

  /** Reloads (or rebuilds) the graph once no other background work runs; searches retry it until then. */
  #startReload(): void {
    if (!this.#reloadWanted || this.#work !== null) return;
    this.#reloadWanted = false;
    this.#background('reload', () => this.#reload());
  }

  async #reload(): Promise<void> {
    if (this.file !== null && (await this.#loadCurrent(this.file)) && (await this.#catchUp(Number.POSITIVE_INFINITY)))
      return;
    await this.#buildIfLarge();
  }

  async #apply(changes: Change[], executor: Executor): Promise<void> {
    const index = this.#index!;
    const added = changes.filter((change) => !change.removed).map((change) => change.key);
    const vectors = new Map<number, { partition: string; vector: Float32Array }>();
    for (let start = 0; start < added.length; start += 300) {
      const { rows } = await sql<{ rowid: number; partition: string; embedding: Uint8Array }>`
        select rowid, ${sql.raw(this.partitionColumn)} as partition, embedding from ${sql.table(this.table)}
        where rowid in (${sql.join(added.slice(start, start + 300))})`.execute(executor);
      for (const row of rows)
        vectors.set(Number(row.rowid), { partition: row.partition, vector: this.#vectorOf(row.embedding) });
    }
    for (const change of changes) {
      if (this.#partitionOf.has(change.key)) {
        index.remove(BigInt(change.key));
        this.#untrack(change.key);
      }
      // A row added and deleted since is absent: its deletion follows in the log.
      const row = change.removed ? undefined : vectors.get(change.key);
      if (row !== undefined) {
        index.add(BigInt(change.key), row.vector, 1);
        this.#track(change.key, row.partition);
      }
      this.#highWater = change.seq;
      this.#sinceSave += 1;
    }
    this.#saveIfDue(false);
  }

  #saveIfDue(force: boolean): void {
    if (this.#index === null || this.file === null) return;
    if (!force && this.#sinceSave < this.#saveEvery) return;
    this.#save();
  }

  /** Writes the graph and its header under temporary names, then renames them; trims the log to the mark. */
  #save(): void {
    const file = this.file;
    if (this.#index === null || file === null) return;
    const temporary = `${file}.${process.pid}.tmp`;
    this.#index.save(temporary);
    const partitions: Record<string, number[]> = {};
    for (const [key, partition] of this.#partitionOf) (partitions[partition] ??= []).push(key);
    const header: GraphFileHeader = {
      format: fileFormat,
      token: this.#token,
      table: this.table,
      dimensions: this.dimensions,
      highWater: this.#highWater,
      sha256: fileDigest(temporary),
      partitions,
    };
    fs.writeFileSync(`${temporary}.json`, JSON.stringify(header));
    fs.renameSync(temporary, file);
    fs.renameSync(`${temporary}.json`, `${file}.json`);
    this.#sinceSave = 0;
    const highWater = this.#highWater;
    // Changes up to the saved mark are in the file; a process behind it reloads the file.
    const previous = this.#trimming;
    const trimming = (async () => {
      await previous;
      await sql`delete from ${sql.table(this.changesTable)} where seq <= ${highWater}`.execute(this.db);
    })()
      .catch((error: unknown) => this.options.onError?.(error, 'trim the change log'))
      .finally(() => {
        if (this.#trimming === trimming) this.#trimming = null;
      });
    this.#trimming = trimming;
  }

  /**
   * Loads the graph file, unless it is ahead of the change log (a database restored from a backup older than
   * the file): a graph is only ever caught up forwards.
   */
  async #loadCurrent(file: string): Promise<boolean> {
    if (!this.#load(file)) return false;
    if (this.#highWater <= (await this.#latestChange(this.db))) return true;
    this.#discard();
    return false;
  }

  /**
   * Loads the graph file when it is whole (its checksum matches: usearch trusts what it reads, and a damaged
   * file could bring the process down) and of this table and width; false otherwise.
   */
  #load(file: string): boolean {
    let header: GraphFileHeader;
    try {
      header = JSON.parse(fs.readFileSync(`${file}.json`, 'utf8')) as GraphFileHeader;
      if (
        header.format !== fileFormat ||
        header.token !== this.#token ||
        header.table !== this.table ||
        header.dimensions !== this.dimensions ||
        typeof header.highWater !== 'number' ||
        typeof header.partitions !== 'object' ||
        fileDigest(file) !== header.sha256
      )
        return false;
    } catch {
      return false;
    }
    const index = this.#newIndex();
    try {
      index.load(file);
    } catch {
      return false;
    }
    let keys = 0;
    for (const list of Object.values(header.partitions)) keys += list.length;
    if (index.size() !== keys || index.dimensions() !== this.dimensions) return false;
    this.#discard();
    for (const [partition, list] of Object.entries(header.partitions))
      for (const key of list) this.#track(key, partition);
    this.#index = index;
    this.#highWater = header.highWater;
    this.#sinceSave = 0;
    return true;
  }
}
