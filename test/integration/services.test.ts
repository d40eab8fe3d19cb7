import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { Redis } from 'ioredis';
import { databaseUrl, postgresSkip, redisSkip, redisUrl } from '../helpers/environment.js';

/**
 * One test per outside service: it proves the service answers when its URL is
 * set, and counts as skipped in the summary when it is not, so a run without
 * PostgreSQL or Redis says so in its totals.
 */
describe('outside services for the integration suites', () => {
  it('PostgreSQL answers at DATABASE_URL', { skip: postgresSkip }, async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const result = await client.query('select 1 as one');
      assert.equal(result.rows[0].one, 1);
    } finally {
      await client.end();
    }
  });

  it('Redis answers at REDIS_URL', { skip: redisSkip }, async () => {
    const client = new Redis(redisUrl as string, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await client.connect();
    try {
      assert.equal(await client.ping(), 'PONG');
    } finally {
      client.disconnect();
    }
  });
});
