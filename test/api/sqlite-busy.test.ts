import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { createTestApp, generousRateLimits, type TestApp } from '../helpers/test-app.js';

/**
 * Another process (an `agentd keys create`, a backup, an operator's sqlite3
 * shell) holding SQLite's write lock longer than the busy time-out makes a write
 * fail with SQLITE_BUSY: the request was fine and would succeed later, so it is
 * a 503 with Retry-After, not a 500.
 */
describe('SQLite write lock held by another connection', () => {
  let testApp: TestApp;
  let other: SqliteDatabase.Database;

  before(async () => {
    testApp = await createTestApp({ env: { AGENTD_RATE_LIMITS: generousRateLimits } });
    const { database } = testApp.config;
    assert.equal(database.kind, 'sqlite');
    other = new SqliteDatabase(database.kind === 'sqlite' ? database.file : '');
  });

  after(async () => {
    if (other?.inTransaction) other.exec('rollback');
    other?.close();
    await testApp?.close();
  });

  it('answers a write 503 service_unavailable with Retry-After, and takes it once the lock is gone', async () => {
    other.exec('begin immediate');
    const blocked = await testApp.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'Blocked' } });
    assert.equal(blocked.statusCode, 503, blocked.body);
    assert.equal(blocked.json().code, 'service_unavailable');
    assert.ok(blocked.headers['retry-after']);

    other.exec('rollback');
    const created = await testApp.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'Unblocked' } });
    assert.equal(created.statusCode, 201, created.body);
  });
});
