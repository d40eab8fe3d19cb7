import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { scopes } from '../../src/schemas/api-keys.js';
import { runAgentd, startServer, type ServerProcess } from '../helpers/server-process.js';
import { waitFor } from '../helpers/wait.js';

describe('the agentd process, as npm start runs it', () => {
  let dataDir: string;
  let env: Record<string, string>;
  let server: ServerProcess;
  let firstKey: string;

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-process-'));
    env = { AGENTD_DATA_DIR: dataDir, LOG_LEVEL: 'info' };
    server = await startServer(env);
  });
  after(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function call(method: string, url: string, key: string, body?: unknown) {
    const response = await fetch(`${server.url}${url}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  it('prints the first key once, boxed, and the key works', async () => {
    // The box comes once the server listens, so it may follow the "Server listening" line by a moment.
    await waitFor(() => /\|\s+agd_[0-9A-Za-z]{40}\s+\|[\s\S]*Try: curl/.test(server.output()), 5_000);
    const boxed = /\|\s+(agd_[0-9A-Za-z]{40})\s+\|/.exec(server.output());
    assert.ok(boxed, server.output());
    firstKey = boxed[1] as string;
    assert.equal(server.output().split(firstKey).length - 1, 1, 'printed exactly once');
    const listed = await call('GET', '/v1/agents', firstKey);
    assert.equal(listed.status, 200);
    assert.ok(fs.existsSync(path.join(dataDir, 'agentd.sqlite')));
    assert.ok(fs.existsSync(path.join(dataDir, 'secret.key')));
  });

  it('names the dashboard and the API at the port it listens on (PORT=0 took a free one)', async () => {
    assert.match(server.output(), new RegExp(`\\| Dashboard: ${server.url}/ \\(sign in with this key\\)\\s+\\|`));
    assert.ok(server.output().includes(`Try: curl -H "Authorization: Bearer <key>" ${server.url}/v1/agents`));
    const dashboard = await fetch(`${server.url}/`);
    assert.equal(dashboard.status, 200);
    assert.match(dashboard.headers.get('content-type') ?? '', /^text\/html/);
  });

  it('creates a second account and key with the CLI while serving, and keeps accounts apart', async () => {
    const account = await runAgentd(['accounts', 'create', '--name', 'Second', '--json'], env);
    assert.equal(account.code, 0, account.stderr);
    const created = JSON.parse(account.stdout);
    assert.deepEqual(Object.keys(created).sort(), ['createdAt', 'id', 'name']);
    assert.equal(created.name, 'Second');

    const key = await runAgentd(['keys', 'create', '--account', created.id, '--name', 'cli', '--json'], env);
    assert.equal(key.code, 0, key.stderr);
    const issued = JSON.parse(key.stdout);
    assert.deepEqual(Object.keys(issued).sort(), ['accountId', 'id', 'key', 'scopes']);
    assert.equal(issued.accountId, created.id);
    assert.deepEqual([...issued.scopes].sort(), [...scopes].sort(), 'a key made without --scopes has every scope');

    const agent = await call('POST', '/v1/agents', issued.key, { name: 'Theirs' });
    assert.equal(agent.status, 201);
    assert.equal((await call('GET', `/v1/agents/${agent.body.id}`, issued.key)).status, 200);
    assert.equal((await call('GET', `/v1/agents/${agent.body.id}`, firstKey)).status, 404);
    assert.equal((await call('GET', '/v1/agents', firstKey)).body.pagination.total, 0);
  });

  it('issues keys with chosen scopes and refuses bad CLI input', async () => {
    const account = JSON.parse((await runAgentd(['accounts', 'create', '--name', 'Scoped', '--json'], env)).stdout);
    const readOnly = JSON.parse(
      (await runAgentd(['keys', 'create', '--account', account.id, '--scopes', 'agents:read', '--json'], env)).stdout,
    );
    assert.deepEqual(readOnly.scopes, ['agents:read']);
    assert.equal((await call('GET', '/v1/agents', readOnly.key)).status, 200);
    const refused = await call('POST', '/v1/agents', readOnly.key, { name: 'Nope' });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 'insufficient_scope');

    const unknownAccount = await runAgentd(['keys', 'create', '--account', 'acc_01ARZ3NDEKTSV4RRFFQ69G5FAV'], env);
    assert.equal(unknownAccount.code, 2);
    assert.match(unknownAccount.stderr, /no account acc_01ARZ3NDEKTSV4RRFFQ69G5FAV/);
    const unknownScope = await runAgentd(['keys', 'create', '--account', account.id, '--scopes', 'agents:fly'], env);
    assert.equal(unknownScope.code, 2);
    assert.match(unknownScope.stderr, /unknown scope agents:fly/);
    const unknownCommand = await runAgentd(['agents', 'explode'], env);
    assert.equal(unknownCommand.code, 2);
    assert.match(unknownCommand.stderr, /Usage: agentd/);
    const help = await runAgentd(['help'], env);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /accounts create --name NAME/);
  });

  it('keeps its data across a restart and prints no new key', async () => {
    const agent = await call('POST', '/v1/agents', firstKey, { name: 'Durable' });
    assert.equal((await server.stop()).code, 0, 'SIGTERM stops it cleanly');
    server = await startServer(env);
    assert.ok(!/agd_[0-9A-Za-z]{40}/.test(server.output()), 'no key printed on a later start');
    const fetched = await call('GET', `/v1/agents/${agent.body.id}`, firstKey);
    assert.equal(fetched.status, 200);
    assert.equal(fetched.body.name, 'Durable');
  });
});

describe('start-up configuration errors', () => {
  it('stops with one line naming the variable', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-config-'));
    try {
      for (const [variable, value] of [
        ['PORT', 'eighty'],
        ['AGENTD_SECRET_KEY', 'too-short'],
        ['AGENTD_RATE_LIMITS', 'everything=1'],
      ]) {
        const result = await runAgentd(['serve'], { AGENTD_DATA_DIR: dataDir, [variable as string]: value as string });
        assert.equal(result.code, 78, result.stderr);
        const lines = result.stderr.trim().split('\n');
        assert.equal(lines.length, 1, result.stderr);
        assert.match(lines[0] as string, new RegExp(`^agentd: Invalid configuration: ${variable} `));
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('uses AGENTD_BOOTSTRAP_KEY as the first key without printing it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-bootstrap-'));
    const key = `agd_${'b'.repeat(40)}`;
    const server = await startServer({ AGENTD_DATA_DIR: dataDir, AGENTD_BOOTSTRAP_KEY: key });
    try {
      assert.ok(!server.output().includes(key));
      const response = await fetch(`${server.url}/v1/api-keys`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(response.status, 200);
    } finally {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('listens with the backlog it is given, so a burst of connections is queued, not reset', async (t) => {
    // The kernel shows a listening socket's backlog as its Send-Q (Linux `ss`).
    const listening = (port: number) => {
      const result = spawnSync('ss', ['-Hltn', `sport = :${port}`], { encoding: 'utf8' });
      return result.status === 0 ? result.stdout.trim().split(/\s+/) : null;
    };
    if (listening(1) === null) return t.skip('no `ss` on this machine');
    const somaxconn = Number(fs.readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-backlog-'));
    const server = await startServer({ AGENTD_DATA_DIR: dataDir, AGENTD_LISTEN_BACKLOG: '1234' });
    try {
      // State, Recv-Q, Send-Q (the backlog), local address, peer.
      assert.equal(Number(listening(server.port)![2]), Math.min(1234, somaxconn));
    } finally {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
