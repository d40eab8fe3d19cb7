import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';

/**
 * On SQLite, list pages and their totals are answered from the committed-read
 * cache like single reads: every write through the service shows on the very
 * next page, another process's within a second.
 */
describe('SQLite list pages from the committed-read cache', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t?.close());

  const list = async (query = '') => (await t.inject({ method: 'GET', url: `/v1/agents?limit=5${query}` })).json();
  const names = (page: { data: Array<{ name: string }> }) => page.data.map((agent) => agent.name);

  it("shows the service's creates, updates, status changes and deletes on the very next page", async () => {
    const first = (await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'First' } })).json();
    const before = await list();
    assert.equal((await list()).pagination.total, before.pagination.total, 'served again unchanged');

    const second = (await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'Second' } })).json();
    let page = await list();
    assert.equal(page.pagination.total, before.pagination.total + 1);
    assert.equal(names(page)[0], 'Second');

    await t.inject({ method: 'PATCH', url: `/v1/agents/${second.id}`, payload: { name: 'Renamed' } });
    assert.equal(names(await list())[0], 'Renamed');

    const inactiveBefore = (await list('&status=inactive')).pagination.total;
    await t.inject({ method: 'PATCH', url: `/v1/agents/${first.id}`, payload: { status: 'inactive' } });
    page = await list('&status=inactive');
    assert.equal(page.pagination.total, inactiveBefore + 1);
    assert.ok(names(page).includes('First'));

    await t.inject({ method: 'DELETE', url: `/v1/agents/${second.id}` });
    page = await list();
    assert.equal(page.pagination.total, before.pagination.total);
    assert.ok(!names(page).includes('Renamed'));
  });

  it("shows another connection's writes to the same file within a second", async () => {
    const created = (await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'Listed' } })).json();
    assert.equal(names(await list())[0], 'Listed');

    const file = t.config.database.kind === 'sqlite' ? t.config.database.file : '';
    const other = new SqliteDatabase(file);
    try {
      other.prepare('update agents set name = ? where id = ?').run('Renamed elsewhere', created.id);
    } finally {
      other.close();
    }

    const seen = await waitFor(async () => names(await list())[0] === 'Renamed elsewhere', 1500, 10);
    assert.notEqual(seen, null, 'the rename shows in the list within a second');
  });
});
