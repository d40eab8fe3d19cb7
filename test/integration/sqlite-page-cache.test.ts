import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../../src/storage/database.js';
import { openSqliteConnection, pageCacheKiB } from '../../src/storage/sqlite-connections.js';

/**
 * Every SQLite connection agentd opens bounds its page cache (about 2 MiB)
 * instead of better-sqlite3's 16 MiB, which a growing database would fill
 * page by page for as long as it grows.
 */
describe('SQLite page cache bound', () => {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-page-cache-'));
  after(() => fs.rmSync(directory, { recursive: true, force: true }));

  it('applies to the writer connection and to read-only connections', async () => {
    assert.equal(pageCacheKiB, 2048);
    const file = path.join(directory, 'agentd.sqlite');
    const handle = openDatabase({ kind: 'sqlite', file });
    try {
      const { rows } = await sql<{ cache_size: number }>`pragma cache_size`.execute(handle.db);
      assert.equal(rows[0]?.cache_size, -pageCacheKiB);
      const reader = openSqliteConnection(file, { readonly: true, fileMustExist: true });
      try {
        assert.equal(reader.pragma('cache_size', { simple: true }), -pageCacheKiB);
      } finally {
        reader.close();
      }
    } finally {
      await handle.close();
    }
  });
});
