import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateApiKey } from '../../src/security/api-key-secret.js';
import { runAgentd, startServer, type ServerProcess } from '../helpers/server-process.js';

/** `agentd agents …` and `agentd chat` as a user runs them, against agentd serving in a process of its own. */
describe('the agentd command over HTTP', () => {
  let dataDir: string;
  let server: ServerProcess;
  let key: string;
  let cli: (args: string[], input?: string, env?: Record<string, string>) => ReturnType<typeof runAgentd>;

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-cli-http-'));
    key = generateApiKey();
    server = await startServer({
      AGENTD_DATA_DIR: dataDir,
      AGENTD_BOOTSTRAP_KEY: key,
      AGENTD_BUILTIN_WORD_DELAY_MS: '0',
    });
    // No data dir or database here: these commands need only where the server is and a key.
    cli = (args, input, env = {}) =>
      runAgentd(args, { AGENTD_URL: server.url, AGENTD_API_KEY: key, ...env }, 30_000, input);
  });
  after(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates, lists, gets and deletes agents', async () => {
    const created = await cli(['agents', 'create', '--name', 'Ava', '--json']);
    assert.equal(created.code, 0, created.stderr);
    const ava = JSON.parse(created.stdout);
    assert.match(ava.id, /^agt_/);

    const bodyFile = path.join(dataDir, 'bob.json');
    fs.writeFileSync(bodyFile, JSON.stringify({ name: 'ignored', status: 'inactive', bio: 'Bob rests.' }));
    const fromFile = await cli(['agents', 'create', '--name', 'Bob', '--json-body', bodyFile]);
    assert.equal(fromFile.code, 0, fromFile.stderr);
    const bobId = /^Created agent (agt_\w+) \(Bob\)\.$/m.exec(fromFile.stdout)?.[1];
    assert.ok(bobId, fromFile.stdout);

    const fromStandardInput = await cli(['agents', 'create', '--json-body', '-', '--json'], '{"name":"Cy"}');
    assert.equal(fromStandardInput.code, 0, fromStandardInput.stderr);
    assert.equal(JSON.parse(fromStandardInput.stdout).name, 'Cy');

    const listed = await cli(['agents', 'list']);
    assert.equal(listed.code, 0, listed.stderr);
    const rows = listed.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t'));
    assert.equal(rows.length, 3);
    assert.ok(rows.some(([id, status, name]) => id === bobId && status === 'inactive' && name === 'Bob'));

    const inactive = await cli(['agents', 'list', '--status', 'inactive', '--json']);
    assert.equal(inactive.code, 0, inactive.stderr);
    const inactiveAgents = inactive.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.deepEqual(
      inactiveAgents.map((agent) => agent.id),
      [bobId],
    );
    assert.deepEqual(inactiveAgents[0].bio, ['Bob rests.']);

    const fetched = await cli(['agents', 'get', ava.id]);
    assert.equal(fetched.code, 0, fetched.stderr);
    assert.deepEqual(JSON.parse(fetched.stdout), ava);

    const deleted = await cli(['agents', 'delete', ava.id]);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal(deleted.stdout, `Deleted agent ${ava.id}.\n`);

    const gone = await cli(['agents', 'get', ava.id]);
    assert.equal(gone.code, 1);
    assert.equal(gone.stdout, '');
    assert.match(gone.stderr, /^agentd: not_found: .+\n$/);
  });

  it('chats: one message per line of input, replies and tool calls on standard output, until the input ends', async () => {
    const created = await cli(
      ['agents', 'create', '--json-body', '-', '--json'],
      '{"name":"Cal","plugins":[{"name":"math"}]}',
    );
    assert.equal(created.code, 0, created.stderr);
    const agentId = JSON.parse(created.stdout).id;

    const chat = await cli(
      ['chat', agentId, '--user', 'terminal'],
      'Hello there\n\n/tool calculate {"expression":"2+2"}\n',
    );
    assert.equal(chat.code, 0, chat.stderr);
    assert.equal(chat.stderr, '');
    const lines = chat.stdout.split('\n');
    assert.ok(lines.includes('[tool calculate {"expression":"2+2"}]'), chat.stdout);
    assert.ok(
      lines.some((line) => /^\[tool calculate → \{"expression":"2\+2","result":"4"\} in \d+ ms\]$/.test(line)),
      chat.stdout,
    );

    // What was printed is what the server stored: two replies in the conversation of user "terminal".
    const history = await fetch(`${server.url}/v1/agents/${agentId}/messages?userId=terminal&limit=100`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const turns = ((await history.json()) as { data: Array<{ role: string; text: string }> }).data;
    const replies = turns.filter((turn) => turn.role === 'agent').reverse();
    assert.equal(replies.length, 2);
    for (const reply of replies) assert.ok(chat.stdout.includes(reply.text), `${reply.text}\nnot in\n${chat.stdout}`);
  });

  it('manages tasks: create, list, disable, enable, run now, get and delete', async () => {
    const agent = JSON.parse((await cli(['agents', 'create', '--name', 'Dee', '--json'])).stdout);
    const created = await cli([
      'tasks',
      'create',
      agent.id,
      '--name',
      'Morning',
      '--instructions',
      'Summarise the news.',
      '--cron',
      '0 8 * * *',
      '--timezone',
      'Europe/Berlin',
      '--json',
    ]);
    assert.equal(created.code, 0, created.stderr);
    const task = JSON.parse(created.stdout);
    assert.deepEqual(task.schedule, { cron: '0 8 * * *', timezone: 'Europe/Berlin' });

    const listed = await cli(['tasks', 'list', agent.id]);
    assert.equal(listed.code, 0, listed.stderr);
    const [id, schedule, state, lastRun, name] = listed.stdout.trim().split('\t');
    assert.deepEqual(
      [id, schedule, state, lastRun, name],
      [task.id, 'cron 0 8 * * * Europe/Berlin', `next ${task.nextDueAt}`, '-', 'Morning'],
    );
    assert.match((await cli(['tasks', 'disable', agent.id, task.id])).stdout, /\tdisabled\t/);
    assert.match((await cli(['tasks', 'enable', agent.id, task.id])).stdout, /\tnext 20\d\d-/);
    const run = await cli(['tasks', 'run', agent.id, task.id]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`^Started run run_\\w+ of task ${task.id}\\.$`, 'm'));
    const got = await cli(['tasks', 'get', agent.id, task.id]);
    assert.equal(JSON.parse(got.stdout).id, task.id);

    const refused = await cli(['tasks', 'create', agent.id, '--name', 'Fast', '--instructions', 'Go.', '--every', '5']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^agentd: validation_failed: schedule\.everySeconds must be at least 60/);
    assert.equal((await cli(['tasks', 'delete', agent.id, task.id])).stdout, `Deleted task ${task.id}.\n`);
    const usage = await cli(['tasks', 'get', agent.id]);
    assert.equal(usage.code, 2);
  });

  it('fails with one line and a non-zero exit code', async () => {
    const unknownAgent = await cli(['chat', 'agt_01JD0000000000000000000000'], 'hello\n');
    assert.equal(unknownAgent.code, 1);
    assert.match(unknownAgent.stderr, /^agentd: not_found: [^\n]+\n$/);

    const invalid = await cli(['agents', 'create', '--name', 'x'.repeat(101)]);
    assert.equal(invalid.code, 1);
    assert.match(invalid.stderr, /^agentd: validation_failed: [^\n]+\n$/);

    const wrongKey = await cli(['agents', 'list'], undefined, { AGENTD_API_KEY: generateApiKey() });
    assert.equal(wrongKey.code, 1);
    assert.match(wrongKey.stderr, /^agentd: unauthorized: [^\n]+\n$/);

    const noKey = await runAgentd(['agents', 'list'], { AGENTD_URL: server.url });
    assert.equal(noKey.code, 78);
    assert.match(noKey.stderr, /AGENTD_API_KEY/);

    const unusable = await cli(['agents', 'get']);
    assert.equal(unusable.code, 2);
    assert.match(unusable.stderr, /agents get needs one AGENT_ID/);
  });

  it('says when no agentd answers at AGENTD_URL', async () => {
    const stopped = await startServer({ AGENTD_DATA_DIR: fs.mkdtempSync(path.join(dataDir, 'stopped-')) });
    const url = stopped.url;
    await stopped.stop();
    const result = await cli(['agents', 'list'], undefined, { AGENTD_URL: url });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^agentd: cannot reach agentd at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
  });
});
