import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { hashApiKey } from '../../src/security/api-key-secret.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';
import { CommittedReads, withStatementCache } from '../../src/storage/sqlite-connections.js';

/**
 * On SQLite, the reads every request makes are answered from memory until
 * a table they read from changes. Writes through the service show on the
 * next read; writes by another connection to the same file (another process)
 * as soon as the file system reports them, within a second at most.
 */
describe('SQLite committed-read cache', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t?.close());

  it("shows the service's own writes on the very next read", async () => {
    const created = (await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'Before' } })).json();
    for (let round = 0; round < 3; round += 1) {
      const name = `After ${round}`;
      assert.equal(
        (await t.inject({ method: 'GET', url: `/v1/agents/${created.id}` })).json().name,
        round === 0 ? 'Before' : `After ${round - 1}`,
      );
      await t.inject({ method: 'PATCH', url: `/v1/agents/${created.id}`, payload: { name } });
      assert.equal((await t.inject({ method: 'GET', url: `/v1/agents/${created.id}` })).json().name, name);
    }
  });

  it("sees another connection's writes to the same file within a second", async () => {
    const created = (await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'Original' } })).json();
    const key = await t.newKey(t.owner.accountId);
    assert.equal((await t.inject({ method: 'GET', url: `/v1/agents/${created.id}`, as: key })).statusCode, 200);

    const file = t.config.database.kind === 'sqlite' ? t.config.database.file : '';
    const other = new SqliteDatabase(file);
    try {
      other.prepare('update agents set name = ? where id = ?').run('Renamed elsewhere', created.id);
      other
        .prepare('update api_keys set revoked_at = ? where key_hash = ?')
        .run(new Date().toISOString(), hashApiKey(key.key));
    } finally {
      other.close();
    }

    const renamedAfter = await waitFor(
      async () =>
        (await t.inject({ method: 'GET', url: `/v1/agents/${created.id}` })).json().name === 'Renamed elsewhere',
      1500,
      10,
    );
    assert.notEqual(renamedAfter, null, 'the rename shows within a second');
    const refusedAfter = await waitFor(
      async () => (await t.inject({ method: 'GET', url: '/v1/agents', as: key })).statusCode === 401,
      1500,
      10,
    );
    assert.notEqual(refusedAfter, null, 'the revocation holds within a second');
  });
});

/**
 * The cache itself, on a schema of its own: a write drops the cached reads of
 * the tables it can change (its own, by triggers, by foreign-key cascades),
 * and only those.
 */
describe('SQLite committed reads by table', () => {
  let writer: SqliteDatabase.Database;
  let reads: CommittedReads;
  let write: ReturnType<typeof withStatementCache>;
  const read = (sqlText: string, ...parameters: unknown[]) => reads.read(sqlText, parameters);
  const run = (sqlText: string, ...parameters: unknown[]) => write.prepare(sqlText).run(...parameters);
  /**
   * Resolves once a watcher of the test's own, made after the cache's, has heard of a change to the
   * database files, and so the cache's watcher, called in the same turn, too.
   */
  const changeReported = () =>
    new Promise<void>((resolve) => {
      const watcher = fs.watch(directory, () => {
        watcher.close();
        setImmediate(resolve);
      });
    });

  /** The cache's time, moved by tests that need entries to expire. */
  let now = Date.now();
  let directory: string;
  before(() => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-read-cache-'));
    const file = path.join(directory, 'cache.db');
    writer = new SqliteDatabase(file);
    writer.pragma('journal_mode = WAL');
    writer.pragma('foreign_keys = ON');
    writer.exec(`
      create table parents (id integer primary key);
      create table children (id integer primary key, parent integer references parents(id) on delete cascade);
      create table items (id integer primary key, body text);
      create table item_index (item integer, body text);
      create trigger items_indexed after insert on items begin
        insert into item_index (item, body) values (new.id, new.body);
      end;
      create table notes (id integer primary key, body text);
      insert into parents (id) values (1);
      insert into children (id, parent) values (10, 1);
      insert into notes (id, body) values (1, 'first');
    `);
    write = withStatementCache(writer, (report) => reads.written(report));
    reads = new CommittedReads(file, writer, write, () => now);
  });
  after(() => {
    reads?.close();
    writer?.close();
    fs.rmSync(directory, { recursive: true, force: true });
  });

  it('lets go of expired entries instead of keeping them until the cache is full', () => {
    const held = reads.cachedRows;
    for (let id = 1000; id < 1100; id += 1) read('select body from notes where id = ?', id);
    assert.equal(reads.cachedRows, held + 100);
    // Past the entries' lifetime and the sweep interval, the next read drops every expired entry.
    now += 10_000;
    read('select body from notes where id = ?', 1);
    assert.equal(reads.cachedRows, 1);
  });

  it('reads again what a cascade removed', () => {
    assert.equal(read('select id from children where parent = ?', 1).length, 1);
    run('delete from parents where id = ?', 1);
    assert.deepEqual(read('select id from children where parent = ?', 1), []);
  });

  it('reads again what a trigger wrote', () => {
    assert.deepEqual(read('select body from item_index'), []);
    run('insert into items (body) values (?)', 'indexed');
    assert.deepEqual(read('select body from item_index'), [{ body: 'indexed' }]);
  });

  it('shows what a transaction wrote once it commits, not before', () => {
    const count = () => (read('select count(*) as n from items') as Array<{ n: number }>)[0]!.n;
    const before = count();
    run('begin');
    run('insert into items (body) values (?)', 'in a transaction');
    assert.equal(count(), before, 'uncommitted rows are not read');
    run('commit');
    assert.equal(count(), before + 1);
  });

  it('keeps the cached reads of tables a write cannot change', () => {
    assert.deepEqual(read('select body from notes where id = ?', 1), [{ body: 'first' }]);
    // A write the cache is not told of (the writer connection itself, unobserved) shows only once notes change.
    writer.prepare('update notes set body = ? where id = ?').run('unseen', 1);
    run('insert into items (body) values (?)', 'elsewhere');
    assert.deepEqual(read('select body from notes where id = ?', 1), [{ body: 'first' }]);
    run('insert into notes (id, body) values (?, ?)', 2, 'second');
    assert.deepEqual(read('select body from notes where id = ?', 1), [{ body: 'unseen' }]);
  });

  it('follows schema changes: a new trigger makes its writes drop the reads of the table it writes', () => {
    assert.deepEqual(read('select body from item_index where item = ?', 0), []);
    run(`create trigger notes_indexed after insert on notes begin
           insert into item_index (item, body) values (0, new.body);
         end`);
    run('insert into notes (id, body) values (?, ?)', 3, 'third');
    assert.deepEqual(read('select body from item_index where item = ?', 0), [{ body: 'third' }]);
  });

  it('keeps its cached reads through a `with …` query that only reads, not through one that writes', () => {
    assert.deepEqual(read('select body from notes where id = ?', 1), [{ body: 'unseen' }]);
    writer.prepare('update notes set body = ? where id = ?').run('unseen by a read', 1);
    write.prepare('with wanted as (select ? as id) select body from items where id in (select id from wanted)').all(1);
    assert.deepEqual(read('select body from notes where id = ?', 1), [{ body: 'unseen' }]);
    run('with wanted as (select ? as id) delete from children where id in (select id from wanted)', 99);
    assert.deepEqual(read('select body from notes where id = ?', 1), [{ body: 'unseen by a read' }]);
    writer.prepare('update notes set body = ? where id = ?').run('unseen', 1);
    run('update notes set body = body where id = ?', 1);
  });

  it("drops its cached reads once the file system reports another connection's commit", async () => {
    assert.equal(read('select id from parents where id = ?', 2).length, 0);
    const reported = changeReported();
    const other = new SqliteDatabase(writer.name);
    try {
      other.prepare('insert into parents (id) values (?)').run(2);
    } finally {
      other.close();
    }
    await reported;
    assert.equal(read('select id from parents where id = ?', 2).length, 1);
  });

  it("keeps its cached reads through the file changes of this process's own writes", async () => {
    assert.deepEqual(read('select body from notes where id = ?', 1), [{ body: 'unseen' }]);
    const reported = changeReported();
    writer.prepare('update notes set body = ? where id = ?').run('unseen again', 1);
    run('insert into items (body) values (?)', 'more');
    await reported;
    assert.deepEqual(read('select body from notes where id = ?', 1), [{ body: 'unseen' }]);
  });
});
