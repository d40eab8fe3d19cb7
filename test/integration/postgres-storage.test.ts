import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest, migrations } from '../../src/storage/migrate.js';
import { postgresSkip } from '../helpers/environment.js';
import { createFreshDatabase, type FreshDatabase } from '../helpers/postgres.js';

describe('PostgreSQL storage', { skip: postgresSkip }, () => {
  let database: FreshDatabase;
  before(async () => {
    database = await createFreshDatabase();
  });
  after(async () => database?.drop());

  it('runs each migration once when several instances start together on a fresh database', async () => {
    const handles = Array.from({ length: 6 }, () => openDatabase({ kind: 'postgres', url: database.url, poolSize: 2 }));
    try {
      const outcomes = await Promise.allSettled(handles.map((handle) => migrateToLatest(handle)));
      const failures = outcomes.filter((outcome) => outcome.status === 'rejected');
      assert.deepEqual(failures, [], 'every instance starts');
      const applied = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? outcome.value : []));
      const all = Object.keys(migrations('postgres'));
      assert.ok(all.length >= 2);
      assert.deepEqual([...applied].sort(), all, 'exactly one instance applied each migration');

      const recorded = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
        handles[0]!.db,
      );
      assert.deepEqual(
        recorded.rows.map((row) => row.name),
        all,
      );
      assert.deepEqual(await migrateToLatest(handles[0]!), [], 'a later start finds nothing to do');
    } finally {
      await Promise.all(handles.map((handle) => handle.close()));
    }
  });

  it("migrates a database whose other schema holds another application's migration tables", async () => {
    const shared = await createFreshDatabase();
    const other = new pg.Client({ connectionString: shared.url });
    await other.connect();
    const handle = openDatabase({ kind: 'postgres', url: shared.url, poolSize: 2 });
    try {
      // Another application migrated with Kysely too, into a schema of its own.
      await other.query(`
        create schema billing;
        create table billing.kysely_migration (name varchar(255) primary key, timestamp varchar(255) not null);
        create table billing.kysely_migration_lock (id varchar(255) primary key, is_locked integer not null default 0);
        insert into billing.kysely_migration_lock values ('migration_lock', 0);
        insert into billing.kysely_migration values ('0001-invoices', '2026-01-01T00:00:00.000Z');`);
      const applied = await migrateToLatest(handle);
      assert.deepEqual(applied, Object.keys(migrations('postgres')), 'every migration of agentd ran');
      const tables = await handle.db.introspection.getTables({ withInternalKyselyTables: true });
      assert.ok(tables.length > 2);
      assert.deepEqual(new Set(tables.map((table) => table.schema)), new Set(['public']), 'its own schema only');
      const agents = tables.find((table) => table.name === 'agents');
      assert.ok(agents?.columns.some((column) => column.name === 'id' && !column.isNullable));
      const theirs = await other.query('select name from billing.kysely_migration');
      assert.deepEqual(
        theirs.rows.map((row) => row.name),
        ['0001-invoices'],
        'the other application’s record is untouched',
      );
    } finally {
      await handle.close();
      await other.end();
      await shared.drop();
    }
  });

  it('opens at most AGENTD_DATABASE_POOL_SIZE connections per instance', async () => {
    const applicationName = `agentd_pool_${randomBytes(4).toString('hex')}`;
    const poolSize = 3;
    const handle = openDatabase({ kind: 'postgres', url: database.url, poolSize }, { applicationName });
    const observer = new pg.Client({ connectionString: database.url });
    await observer.connect();
    try {
      let most = 0;
      let running = true;
      const watching = (async () => {
        while (running) {
          const result = await observer.query<{ count: string }>(
            'select count(*) from pg_stat_activity where application_name = $1',
            [applicationName],
          );
          most = Math.max(most, Number(result.rows[0]!.count));
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      })();
      // Eight queries at once, each holding its connection for a while: the rest wait for one.
      await Promise.all(Array.from({ length: 8 }, () => sql`select pg_sleep(0.2)`.execute(handle.db)));
      running = false;
      await watching;
      assert.equal(most, poolSize);
    } finally {
      await observer.end();
      await handle.close();
    }
  });
});
