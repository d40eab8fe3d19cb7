import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateApiKey } from '../../src/security/api-key-secret.js';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeProviderServer } from '../helpers/fake-provider-server.js';
import { mainScript, runAgentd, startServer, type ServerProcess } from '../helpers/server-process.js';

/**
 * `agentd eval` as a CI job runs it, against agentd serving in a process of its own with the builtin model
 * (a pure function of the prompt: its replies quote the message and the agent's bio, so each scorer's outcome
 * is known in advance).
 */
describe('agentd eval over HTTP', () => {
  let dataDir: string;
  let server: ServerProcess;
  let provider: FakeProviderServer;
  let key: string;
  let agentId: string;
  let datasetId: string;
  let cli: (args: string[]) => ReturnType<typeof runAgentd>;

  const api = async (method: string, url: string, body?: unknown) => {
    const response = await fetch(`${server.url}${url}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const json = (await response.json()) as Record<string, unknown> & { id: string };
    assert.ok(response.ok, JSON.stringify(json));
    return json;
  };

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-eval-command-'));
    key = generateApiKey();
    // A provider slow enough for an eval to be interrupted while it runs.
    provider = await startFakeOpenAiServer();
    provider.setDefault({ delayMs: 1000, reply: 'Noted.' });
    server = await startServer({
      AGENTD_DATA_DIR: dataDir,
      AGENTD_BOOTSTRAP_KEY: key,
      AGENTD_OPENAI_COMPATIBLE_BASE_URL: provider.baseUrl,
    });
    cli = (args) => runAgentd(args, { AGENTD_URL: server.url, AGENTD_API_KEY: key }, 60_000);

    // Version 1 has no bio; version 2's bio, which the builtin model repeats, mentions refunds.
    agentId = (await api('POST', '/v1/agents', { name: 'Ava' })).id;
    await api('PATCH', `/v1/agents/${agentId}`, { bio: ['Ava handles refunds.'] });
    datasetId = (
      await api('POST', '/v1/eval-datasets', {
        name: 'Support',
        cases: [
          {
            id: 'greeting',
            messages: ['Hello!'],
            expect: [
              { type: 'contains', value: 'hello' },
              { type: 'finishReason', value: 'stop' },
            ],
          },
          {
            id: 'refund',
            messages: ['I want my money back'],
            expect: [{ type: 'contains', value: 'refunds' }, { type: 'noToolCalled' }],
          },
          {
            id: 'two-turns',
            messages: ['My name is Kim.', 'What is my name?'],
            expect: [{ type: 'contains', value: 'Earlier you said: “My name is Kim.”' }],
          },
          {
            id: 'horses',
            messages: ['Tell me about horses.'],
            expect: [{ type: 'contains', value: 'zebra' }],
          },
        ],
      })
    ).id;
  });
  after(async () => {
    await server?.stop();
    await provider?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('compares two versions: a table per scorer, the differing case first, exit 0 when the thresholds hold', async () => {
    const run = await cli([
      'eval',
      agentId,
      '--dataset',
      datasetId,
      '--versions',
      '1,2',
      '--min',
      'contains=0.75',
      '--min',
      'finishReason=1',
      '--min-total',
      '0.75',
    ]);
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.split('\n');
    assert.match(lines[0]!, /^Eval evl_\w+ on "Support" \(eds_\w+\): completed, 8\/8 results, \d+\.\d s$/);
    // Per scorer, each version's passes and mean score, and the second's difference from the first.
    assert.deepEqual(lines.slice(2, 9), [
      'scorer        v1          v2          difference',
      'contains      2/4  0.500  3/4  0.750  +0.250',
      'noToolCalled  1/1  1.000  1/1  1.000  +0.000',
      'finishReason  1/1  1.000  1/1  1.000  +0.000',
      'cases passed  2/4  0.500  3/4  0.750  +0.250',
      'errored       0           0',
      '',
    ]);
    assert.deepEqual(lines.slice(9, 17), [
      '1 case differs between the versions:',
      'case    v1                v2',
      'refund  failed: contains  passed',
      '',
      '1 case failed the same way in both versions:',
      'case    v1                v2',
      'horses  failed: contains  failed: contains',
      '',
    ]);
    assert.equal(lines[17], '2 of 4 cases passed in both versions.');
    // Progress went to standard error, the report alone to standard output.
    assert.match(run.stderr, /^Eval evl_\w+ of agt_\w+ on "Support": versions 1, 2$/m);
    assert.match(run.stderr, /^completed 8\/8$/m);
  });

  it('exits 1 and names the threshold missed; --json prints the eval', async () => {
    const run = await cli([
      'eval',
      agentId,
      '--dataset',
      datasetId,
      '--min-total',
      '1',
      '--min',
      'contains=0.7',
      '--json',
    ]);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /^agentd: threshold missed: total: 3\/4 cases passed \(0\.75\) < 1 in version 2$/m);
    assert.doesNotMatch(run.stderr, /threshold missed: contains/);
    const result = JSON.parse(run.stdout);
    assert.equal(result.status, 'completed');
    assert.deepEqual(result.versions, [2]);
    assert.deepEqual(
      result.cases.map((entry: { caseId: string }) => entry.caseId),
      ['greeting', 'refund', 'two-turns', 'horses'],
    );
    // The eval the command printed is the one the API keeps.
    const kept = await api('GET', `/v1/agents/${agentId}/evals/${result.id}`);
    assert.deepEqual(kept.totals, result.totals);
  });

  it('exits 2 on a usage error, and on a problem from the API with its title and detail', async () => {
    const usage = await cli(['eval', agentId, '--dataset', datasetId, '--min', 'contains=2']);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /^agentd: --min contains takes a number from 0 to 1, not "2"\n/);

    const missing = await cli(['eval', agentId, '--dataset', 'eds_01JZZZZZZZZZZZZZZZZZZZZZZZ']);
    assert.equal(missing.code, 2, missing.stderr);
    assert.equal(missing.stdout, '');
    assert.equal(missing.stderr, 'agentd: Not found (404): Eval dataset not found\n');

    const version = await cli(['eval', agentId, '--dataset', datasetId, '--versions', '9']);
    assert.equal(version.code, 2, version.stderr);
    assert.equal(
      version.stderr,
      'agentd: Request validation failed (400):\n  /body/versions: the agent has no version 9\n',
    );
  });

  it('cancels the eval on Ctrl-C', async () => {
    // 20 cases one at a time, each reply a second: interrupted long before its end.
    const slow = await api('POST', '/v1/agents', { name: 'Slow', model: { provider: 'openai-compatible', name: 'm' } });
    const long = await api('POST', '/v1/eval-datasets', {
      name: 'Long',
      cases: Array.from({ length: 20 }, (_, index) => ({ id: `case-${index}`, messages: ['Hi'], expect: [] })),
    });
    const child = spawn(process.execPath, [mainScript, 'eval', slow.id, '--dataset', long.id, '--concurrency', '1'], {
      env: { PATH: process.env.PATH, AGENTD_URL: server.url, AGENTD_API_KEY: key },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    const exited = once(child, 'exit');
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (chunk) => {
        stderr += String(chunk);
        // Once it follows the eval, as a person pressing Ctrl-C while it runs.
        if (/^(queued|running) \d+\/20$/m.test(stderr)) resolve();
      });
      void exited.then(() => reject(new Error(`it ended before it was interrupted:\n${stderr}`)));
    });
    child.kill('SIGINT');
    const [code] = (await exited) as [number | null];
    assert.equal(code, 130, stderr);
    assert.equal(stdout, '');
    const evalId = /^Eval (evl_\w+) of/m.exec(stderr)?.[1];
    assert.match(stderr, new RegExp(`^Interrupted: eval ${evalId} cancelled \\(the results so far stay\\)\\.$`, 'm'));
    const cancelled = (await api('GET', `/v1/agents/${slow.id}/evals/${evalId}`)) as unknown as {
      status: string;
      progress: { done: number; total: number };
    };
    assert.equal(cancelled.status, 'cancelled');
    assert.ok(cancelled.progress.done < cancelled.progress.total);
  });
});
