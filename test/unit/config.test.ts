import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError, defaultRateLimits, loadConfig, parseRateLimits } from '../../src/config.js';
import { ProviderCatalog } from '../../src/providers/catalog.js';

const secret = 'ab'.repeat(32);

function failure(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env, '/srv');
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error;
  }
  assert.fail('expected a configuration error');
}

describe('configuration from the environment', () => {
  it('has embedded defaults: SQLite in ./data, port 3000 on loopback, the contract limits', () => {
    const config = loadConfig({}, '/srv');
    assert.equal(config.port, 3000);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.dataDir, path.resolve('/srv/data'));
    assert.deepEqual(config.database, { kind: 'sqlite', file: path.resolve('/srv/data/agentd.sqlite') });
    assert.equal(config.redis, null);
    assert.deepEqual(config.rateLimits, defaultRateLimits);
    assert.equal(config.bodyLimitBytes, 1_048_576);
    assert.equal(config.providerTimeoutMs, 30_000);
    assert.equal(config.outbound.allowPrivateAddresses, false);
  });

  it('caps open streams per account at 100 unless told otherwise, also with the rate limits off', () => {
    assert.equal(loadConfig({}).maxOpenStreamsPerAccount, 100);
    const custom = loadConfig({ AGENTD_MAX_OPEN_STREAMS_PER_ACCOUNT: '5', AGENTD_RATE_LIMITS: 'off' });
    assert.equal(custom.maxOpenStreamsPerAccount, 5);
    assert.equal(custom.rateLimits, null);
    assert.equal(failure({ AGENTD_MAX_OPEN_STREAMS_PER_ACCOUNT: '0' }).variable, 'AGENTD_MAX_OPEN_STREAMS_PER_ACCOUNT');
  });

  it('lets calls to user-given URLs reach private addresses only when switched on', () => {
    assert.equal(loadConfig({ AGENTD_OUTBOUND_ALLOW_PRIVATE: 'true' }).outbound.allowPrivateAddresses, true);
    assert.equal(loadConfig({ AGENTD_OUTBOUND_ALLOW_PRIVATE: 'false' }).outbound.allowPrivateAddresses, false);
  });

  it('names the variable and never echoes its value', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ PORT: 'abc' }, 'PORT'],
      [{ PORT: '70000' }, 'PORT'],
      [{ DATABASE_URL: 'mysql://secret-password@db' }, 'DATABASE_URL'],
      [{ DATABASE_URL: 'postgres://u:hunter2@db/agentd' }, 'AGENTD_SECRET_KEY'],
      [{ AGENTD_SECRET_KEY: 'not-hex-hunter2' }, 'AGENTD_SECRET_KEY'],
      [{ AGENTD_BOOTSTRAP_KEY: 'agd_hunter2' }, 'AGENTD_BOOTSTRAP_KEY'],
      [{ REDIS_URL: 'http://hunter2@cache' }, 'REDIS_URL'],
      [{ AGENTD_RATE_LIMITS: 'createAgent=lots' }, 'AGENTD_RATE_LIMITS'],
      [{ AGENTD_DEFAULT_MODEL: 'gpt-4o' }, 'AGENTD_DEFAULT_MODEL'],
      [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
      [{ OLLAMA_BASE_URL: 'ftp://hunter2' }, 'OLLAMA_BASE_URL'],
      [{ AGENTD_ALLOW_AGENT_MODEL_KEYS: 'maybe' }, 'AGENTD_ALLOW_AGENT_MODEL_KEYS'],
      [{ AGENTD_OUTBOUND_ALLOW_PRIVATE: 'hunter2' }, 'AGENTD_OUTBOUND_ALLOW_PRIVATE'],
    ];
    for (const [env, variable] of cases) {
      const error = failure(env);
      assert.equal(error.variable, variable, JSON.stringify(env));
      assert.ok(error.message.startsWith(`Invalid configuration: ${variable} `), error.message);
      assert.ok(!error.message.includes('hunter2'), error.message);
      assert.ok(!error.message.includes('\n'), 'one line');
    }
  });

  it('accepts PostgreSQL with a secret key and Redis', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://agentd@db:5432/agentd',
      AGENTD_SECRET_KEY: secret,
      AGENTD_DATABASE_POOL_SIZE: '25',
      REDIS_URL: 'redis://cache:6379',
    });
    assert.deepEqual(config.database, { kind: 'postgres', url: 'postgres://agentd@db:5432/agentd', poolSize: 25 });
    assert.deepEqual(config.redis, { url: 'redis://cache:6379', keyPrefix: 'agentd:', leaseMs: 30_000 });
    assert.equal(config.secretKey?.toString('hex'), secret);
  });

  it('parses rate limit overrides, any subset, and off', () => {
    const limits = parseRateLimits('createAgent=100, getAgent=600,sendMessageConcurrency=20');
    assert.equal(limits?.perMinute.createAgent, 100);
    assert.equal(limits?.perMinute.getAgent, 600);
    assert.equal(limits?.perMinute.listAgents, 60);
    assert.equal(limits?.sendMessageConcurrency, 20);
    assert.equal(parseRateLimits('off'), null);
    assert.equal(parseRateLimits('OFF'), null);
    assert.throws(() => parseRateLimits('createAgents=5'), /unknown limit "createAgents"/);
    assert.throws(() => parseRateLimits('createAgent=0'), /from 1/);
  });

  it('enables providers from their variables and picks the default model', () => {
    const none = new ProviderCatalog(loadConfig({}));
    assert.deepEqual(none.enabled, ['builtin']);
    assert.deepEqual(none.defaultModel, { provider: 'builtin', name: 'echo' });

    const openai = new ProviderCatalog(
      loadConfig({ OPENAI_API_KEY: 'sk-test', OLLAMA_BASE_URL: 'http://127.0.0.1:11434' }),
    );
    assert.deepEqual(openai.enabled, ['openai', 'ollama', 'builtin']);
    assert.deepEqual(openai.defaultModel, { provider: 'openai', name: 'gpt-4o-mini' });

    const chosen = new ProviderCatalog(
      loadConfig({ OLLAMA_BASE_URL: 'http://127.0.0.1:11434', AGENTD_DEFAULT_MODEL: 'ollama/qwen2.5:7b' }),
    );
    assert.deepEqual(chosen.defaultModel, { provider: 'ollama', name: 'qwen2.5:7b' });

    assert.throws(
      () => new ProviderCatalog(loadConfig({ AGENTD_DEFAULT_MODEL: 'anthropic/claude-haiku-4-5' })),
      /AGENTD_DEFAULT_MODEL.*not enabled/,
    );
  });
});
