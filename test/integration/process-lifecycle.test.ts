import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { generateApiKey } from '../../src/security/api-key-secret.js';
import { sendStreamedMessage } from '../helpers/message-stream.js';
import { deltaText, type ReceivedEvent } from '../helpers/sse-client.js';
import { runAgentd, startServer, type ServerProcess } from '../helpers/server-process.js';
import { waitFor } from '../helpers/wait.js';

const temporaryDirectories: string[] = [];
function dataDir(): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-process-'));
  temporaryDirectories.push(directory);
  return directory;
}
after(() => {
  for (const directory of temporaryDirectories) fs.rmSync(directory, { recursive: true, force: true });
});

describe('start-up configuration errors', () => {
  it('refuses PostgreSQL without AGENTD_SECRET_KEY in one line that names the variable', async () => {
    // The URL need not lead anywhere: the configuration is checked before any connection.
    const env = { AGENTD_DATA_DIR: dataDir(), DATABASE_URL: 'postgres://agentd:db-pa55word@db.invalid:5432/agentd' };
    for (const command of [['serve'], ['migrate']]) {
      const result = await runAgentd(command, env);
      assert.equal(result.code, 78, 'exits with the configuration error status (EX_CONFIG)');
      assert.equal(result.stdout, '');
      const lines = result.stderr.trim().split('\n');
      assert.equal(lines.length, 1, result.stderr);
      assert.match(lines[0]!, /^agentd: Invalid configuration: AGENTD_SECRET_KEY is required with PostgreSQL/);
      assert.ok(!result.stderr.includes('db-pa55word'), 'the database password is not echoed');
    }
  });

  it('names a malformed REDIS_URL without echoing it', async () => {
    const result = await runAgentd(['serve'], {
      AGENTD_DATA_DIR: dataDir(),
      REDIS_URL: 'http://user:redis-pa55word@cache:6379',
    });
    assert.equal(result.code, 78);
    assert.match(
      result.stderr,
      /^agentd: Invalid configuration: REDIS_URL must start with redis:\/\/ or rediss:\/\/\n$/,
    );
  });
});

/**
 * A request the server is in the middle of: the headers of a create with
 * `Expect: 100-continue`. The server's "100 Continue" proves it has the request;
 * the body follows when the test says so.
 */
async function requestInFlight(server: ServerProcess, key: string, body: string) {
  const socket = net.connect(server.port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => (received += String(chunk)));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => undefined);
  socket.write(
    'POST /v1/agents HTTP/1.1\r\nHost: agentd\r\nContent-Type: application/json\r\n' +
      `Authorization: Bearer ${key}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
  );
  if ((await waitFor(() => received.includes('100 Continue'), 5000, 10)) === null)
    throw new Error(`no 100 Continue: ${received}`);
  return {
    sendBody: () => socket.write(body),
    /** The final response once the server has closed the connection. */
    response: async () => {
      await closed;
      return received.slice(received.indexOf('\r\n\r\n') + 4);
    },
  };
}

async function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

describe('graceful shutdown on SIGTERM', () => {
  it('finishes a running request, refuses new connections, and exits 0', async () => {
    const key = generateApiKey();
    const server = await startServer({
      AGENTD_DATA_DIR: dataDir(),
      AGENTD_BOOTSTRAP_KEY: key,
      AGENTD_SHUTDOWN_TIMEOUT_MS: '10000',
    });
    try {
      const running = await requestInFlight(server, key, JSON.stringify({ name: 'Finished during shutdown' }));
      server.child.kill('SIGTERM');

      const refusedAfter = await waitFor(() => connectionRefused(server.port), 2000, 20);
      assert.notEqual(refusedAfter, null, 'new connections are refused while draining');
      assert.equal(server.child.exitCode, null, 'still running while a request is in flight');

      running.sendBody();
      const response = await running.response();
      assert.match(response, /^HTTP\/1\.1 201 Created\r\n/);
      assert.match(response, /\r\nconnection: close\r\n/i, 'the connection is not kept for another request');
      assert.match(response, /"name":"Finished during shutdown"/);

      const exit = await server.exited;
      assert.deepEqual(exit, { code: 0, signal: null });
      assert.ok(server.logEntries().some((entry) => entry.msg === 'stopped' && entry.timedOut === false));
    } finally {
      await server.stop('SIGKILL');
    }
  });

  it('ends what is still running at AGENTD_SHUTDOWN_TIMEOUT_MS and exits 0', async () => {
    const key = generateApiKey();
    const server = await startServer({
      AGENTD_DATA_DIR: dataDir(),
      AGENTD_BOOTSTRAP_KEY: key,
      AGENTD_SHUTDOWN_TIMEOUT_MS: '300',
    });
    try {
      const stuck = await requestInFlight(server, key, JSON.stringify({ name: 'never sent' }));
      const signalledAt = Date.now();
      server.child.kill('SIGTERM');
      const exit = await server.exited;
      const took = Date.now() - signalledAt;
      assert.deepEqual(exit, { code: 0, signal: null });
      assert.ok(took >= 300, `waited for the deadline (${took} ms)`);
      assert.ok(took < 5000, `did not wait much past it (${took} ms)`);
      await stuck.response(); // the connection was closed, not left hanging
      assert.ok(server.logEntries().some((entry) => entry.msg === 'stopped' && entry.timedOut === true));
    } finally {
      await server.stop('SIGKILL');
    }
  });
});

/**
 * A streamed reply of the builtin model (one word every AGENTD_BUILTIN_WORD_DELAY_MS)
 * that has begun, its first word received, on a server of its own.
 */
async function runningStream(env: Record<string, string>) {
  const key = generateApiKey();
  const serverEnvironment = { AGENTD_DATA_DIR: dataDir(), AGENTD_BOOTSTRAP_KEY: key, ...env };
  const server = await startServer(serverEnvironment);
  try {
    const created = await fetch(`${server.url}/v1/agents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ava', model: { provider: 'builtin', name: 'echo' } }),
    });
    assert.equal(created.status, 201);
    const agentId = ((await created.json()) as { id: string }).id;
    const stream = await sendStreamedMessage(server.url, key, agentId, {
      text: 'Tell me about yourself.',
      userId: 'u1',
    });
    assert.equal(stream.status, 200);
    const received: ReceivedEvent[] = [];
    for (const expected of ['message.started', 'message.delta']) {
      const event = await stream.events!.next();
      assert.equal(event?.event, expected);
      received.push(event!);
    }
    return { server, serverEnvironment, key, agentId, stream, received };
  } catch (error) {
    await server.stop('SIGKILL');
    throw error;
  }
}

describe('a streamed reply during graceful shutdown', () => {
  it('runs to its end when it ends before the deadline, then the process exits 0', async () => {
    // About 40 words at 40 ms: some two seconds of stream after the signal, well inside the 10 s deadline.
    const { server, stream, received } = await runningStream({
      AGENTD_SHUTDOWN_TIMEOUT_MS: '10000',
      AGENTD_BUILTIN_WORD_DELAY_MS: '40',
    });
    try {
      server.child.kill('SIGTERM');
      const rest = await stream.events!.rest();
      const completed = rest.at(-1)!;
      assert.equal(completed.event, 'message.completed');
      assert.ok(
        rest.filter((event) => event.event === 'message.delta').length > 5,
        'words kept coming after the signal',
      );
      assert.equal(completed.data.finishReason, 'stop');
      assert.equal(deltaText([...received, ...rest]), completed.data.text);
      assert.match(completed.data.text, /Configure a model provider for real conversations\.\)$/, 'the whole reply');

      assert.deepEqual(await server.exited, { code: 0, signal: null });
      assert.ok(
        server.logEntries().some((entry) => entry.msg === 'stopped' && entry.timedOut === false),
        server.output(),
      );
    } finally {
      await server.stop('SIGKILL');
    }
  });

  it('ends at AGENTD_SHUTDOWN_TIMEOUT_MS as an aborted reply that is stored, then the process exits 0', async () => {
    // One word every 250 ms: the whole reply would take some ten seconds, the deadline is 300 ms.
    const { server, serverEnvironment, key, agentId, stream, received } = await runningStream({
      AGENTD_SHUTDOWN_TIMEOUT_MS: '300',
      AGENTD_BUILTIN_WORD_DELAY_MS: '250',
    });
    let restarted: ServerProcess | undefined;
    try {
      const signalledAt = Date.now();
      server.child.kill('SIGTERM');
      const rest = await stream.events!.rest();
      const took = Date.now() - signalledAt;
      const completed = rest.at(-1)!;
      assert.deepEqual(
        rest.map((event) => event.event),
        [...Array(rest.length - 1).fill('message.delta'), 'message.completed'],
        'the stream ends with message.completed, not a cut connection or message.failed',
      );
      assert.equal(completed.data.finishReason, 'aborted');
      assert.ok(took >= 300 && took < 3000, `ended at the deadline (${took} ms after the signal)`);
      const partial = deltaText([...received, ...rest]);
      assert.equal(completed.data.text, partial);
      assert.match(partial, /^Hello u1/, 'what was said before the deadline');
      assert.doesNotMatch(partial, /Configure a model provider/, 'the reply was cut short');

      assert.deepEqual(await server.exited, { code: 0, signal: null });
      const logs = server.logEntries();
      assert.ok(
        logs.some((entry) => entry.msg?.startsWith('shutdown deadline passed') && entry.streams === 1),
        server.output(),
      );
      assert.ok(
        logs.some((entry) => entry.msg === 'stopped' && entry.timedOut === true),
        server.output(),
      );

      // The next start on the same data finds the exchange, the partial reply marked aborted.
      restarted = await startServer(serverEnvironment);
      const history = await fetch(`${restarted.url}/v1/agents/${agentId}/messages?userId=u1`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const turns = ((await history.json()) as { data: Array<Record<string, unknown>> }).data;
      assert.deepEqual(
        turns.map((turn) => [turn.role, turn.text, turn.finishReason]),
        [
          ['agent', partial, 'aborted'],
          ['user', 'Tell me about yourself.', undefined],
        ],
      );
      assert.equal(turns[0]!.id, completed.data.id);
    } finally {
      await server.stop('SIGKILL');
      await restarted?.stop('SIGKILL');
    }
  });
});
