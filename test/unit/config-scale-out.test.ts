import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

const postgres = { DATABASE_URL: 'postgres://agentd:db-secret@db:5432/agentd', AGENTD_SECRET_KEY: 'ab'.repeat(32) };

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error;
  }
  throw new Error('the configuration was accepted');
}

describe('configuration of a deployment of several instances', () => {
  it('sizes the PostgreSQL pool from AGENTD_DATABASE_POOL_SIZE (10 by default)', () => {
    assert.deepEqual(loadConfig(postgres).database, { kind: 'postgres', url: postgres.DATABASE_URL, poolSize: 10 });
    const sized = loadConfig({ ...postgres, AGENTD_DATABASE_POOL_SIZE: '25' }).database;
    assert.equal(sized.kind === 'postgres' && sized.poolSize, 25);
    for (const value of ['0', '-1', 'ten', '1001']) {
      const error = configError({ ...postgres, AGENTD_DATABASE_POOL_SIZE: value });
      assert.equal(error.variable, 'AGENTD_DATABASE_POOL_SIZE');
    }
  });

  it('requires the shared secret key with PostgreSQL and never echoes the database URL', () => {
    const error = configError({ DATABASE_URL: postgres.DATABASE_URL });
    assert.equal(error.variable, 'AGENTD_SECRET_KEY');
    assert.ok(!error.message.includes('db-secret'));
  });

  it('shares limits through Redis only when REDIS_URL is set, with prefix and lease time', () => {
    assert.equal(loadConfig(postgres).redis, null);
    assert.deepEqual(loadConfig({ ...postgres, REDIS_URL: 'rediss://:pw@cache:6380' }).redis, {
      url: 'rediss://:pw@cache:6380',
      keyPrefix: 'agentd:',
      leaseMs: 30_000,
    });
    const tuned = loadConfig({
      ...postgres,
      REDIS_URL: 'redis://cache',
      AGENTD_REDIS_PREFIX: 'team-a:',
      AGENTD_CONCURRENCY_LEASE_MS: '5000',
    });
    assert.deepEqual(tuned.redis, { url: 'redis://cache', keyPrefix: 'team-a:', leaseMs: 5000 });
    assert.equal(
      configError({ ...postgres, REDIS_URL: 'redis://cache', AGENTD_CONCURRENCY_LEASE_MS: '500' }).variable,
      'AGENTD_CONCURRENCY_LEASE_MS',
    );
    const badUrl = configError({ ...postgres, REDIS_URL: 'cache:6379' });
    assert.equal(badUrl.variable, 'REDIS_URL');
  });
});
