import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCommand, UsageError } from '../../src/cli.js';
import { ConfigError, loadRemoteConfig } from '../../src/config.js';

const key = `agd_${'a'.repeat(40)}`;

test('the HTTP commands find agentd at AGENTD_URL, else on PORT of this machine', () => {
  assert.deepEqual(loadRemoteConfig({ AGENTD_API_KEY: key }), { baseUrl: 'http://127.0.0.1:3000', apiKey: key });
  assert.equal(loadRemoteConfig({ AGENTD_API_KEY: key, PORT: '8080' }).baseUrl, 'http://127.0.0.1:8080');
  assert.equal(
    loadRemoteConfig({ AGENTD_API_KEY: key, PORT: '8080', AGENTD_URL: 'https://agents.example/' }).baseUrl,
    'https://agents.example',
  );
  assert.throws(
    () => loadRemoteConfig({}),
    (error: unknown) => error instanceof ConfigError && error.variable === 'AGENTD_API_KEY',
  );
  assert.throws(
    () => loadRemoteConfig({ AGENTD_API_KEY: key, AGENTD_URL: 'ftp://x' }),
    (error: unknown) => error instanceof ConfigError && error.variable === 'AGENTD_URL',
  );
  // The server's own settings do not concern these commands, even when invalid.
  assert.doesNotThrow(() => loadRemoteConfig({ AGENTD_API_KEY: key, DATABASE_URL: 'mysql://nope' }));
});

test('agents and chat commands parse their ids and options', () => {
  assert.deepEqual(parseCommand(['agents', 'list', '--status', 'inactive', '--json']), {
    name: 'agents-list',
    status: 'inactive',
    json: true,
  });
  assert.deepEqual(parseCommand(['agents', 'get', 'agt_1']), { name: 'agents-get', agentId: 'agt_1' });
  assert.deepEqual(parseCommand(['chat', 'agt_1', '--room', 'lobby']), {
    name: 'chat',
    agentId: 'agt_1',
    userId: 'cli',
    roomId: 'lobby',
  });
  assert.throws(() => parseCommand(['agents', 'list', '--status', 'asleep']), UsageError);
  assert.throws(() => parseCommand(['agents', 'delete']), UsageError);
  assert.throws(() => parseCommand(['agents', 'get', 'agt_1', 'agt_2']), UsageError);
  assert.throws(() => parseCommand(['chat']), UsageError);
  assert.throws(() => parseCommand(['agents', 'create']), UsageError);
});
