import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import type { PluginDefinition } from '../../src/plugins/plugin.js';
import { sendStreamedMessage } from '../helpers/message-stream.js';
import { readEvents } from '../helpers/sse-client.js';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually, waitFor } from '../helpers/wait.js';

/**
 * Plugins as tools, with the builtin model, which calls a tool when a line of
 * the message says `/tool NAME {json}`: validation of plugin entries, the
 * plugin list, tool calls in replies, streams and history, and the limits of
 * a tool call (time-out, output cap, abort).
 */

/** A plugin for these tests only: `wait` runs until its signal aborts; `big` returns a long text. */
const started: string[] = [];
const aborted: string[] = [];
const testPlugin: PluginDefinition = {
  name: 'testing',
  description: 'Tools for tests.',
  configSchema: Type.Object({}, { additionalProperties: false }),
  secretsSchema: Type.Object({ token: Type.Optional(Type.String()) }, { additionalProperties: false }),
  async open(_config, secrets) {
    return {
      tools: [
        {
          name: 'wait',
          description: 'Waits until stopped.',
          inputSchema: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
          execute: (input, { abortSignal }) =>
            new Promise((_resolve, reject) => {
              const { label } = input as { label: string };
              started.push(label);
              abortSignal.addEventListener('abort', () => {
                aborted.push(label);
                reject(new Error('stopped'));
              });
            }),
        },
        {
          name: 'big',
          description: 'A long output.',
          inputSchema: { type: 'object', properties: {} },
          execute: async () => 'x'.repeat(5_000),
        },
        {
          name: 'echo_secret',
          description: 'Gives its secret back, as a careless server would.',
          inputSchema: { type: 'object', properties: {} },
          execute: async () => ({ note: `the token is ${(secrets as { token?: string }).token}` }),
        },
        {
          name: 'leaky',
          description: 'Fails with its secret in the message.',
          inputSchema: { type: 'object', properties: {} },
          execute: async () => {
            throw new Error(`failed with ${(secrets as { token?: string }).token}`);
          },
        },
      ],
    };
  },
};

for (const backend of backends) {
  describe(`plugins and tools on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp;
    let base: string;
    before(async () => {
      t = await createTestApp({
        backend: backend.name,
        // Long enough that the hang-up below always comes while its tool runs, even on a busy machine.
        env: { AGENTD_TOOL_TIMEOUT_MS: '1000', AGENTD_TOOL_OUTPUT_BYTES: '1000', AGENTD_BUILTIN_WORD_DELAY_MS: '0' },
        extraPlugins: [testPlugin],
        captureLogs: true,
      });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });
    after(async () => t?.close());

    const send = (agentId: string, payload: Record<string, unknown>) =>
      t.inject({ method: 'POST', url: `/v1/agents/${agentId}/messages`, payload });
    const create = (payload: Record<string, unknown>) => t.inject({ method: 'POST', url: '/v1/agents', payload });

    it('lists the plugins with their config schemas to any valid key', async () => {
      const narrow = await t.newKey(t.owner.accountId, ['messages:send']);
      const response = await t.inject({ method: 'GET', url: '/v1/plugins', as: narrow });
      assert.equal(response.statusCode, 200, response.body);
      const plugins = response.json().data as Array<{ name: string; configSchema: any; secretsSchema: any }>;
      const names = plugins.map((plugin) => plugin.name);
      for (const name of ['http', 'knowledge', 'clock', 'math', 'mcp']) assert.ok(names.includes(name), name);
      const http = plugins.find((plugin) => plugin.name === 'http')!;
      assert.equal(http.configSchema.properties.timeoutMs.default, 10_000);
      assert.equal(http.configSchema.required, undefined, 'what has a default may be left out');
      const mcp = plugins.find((plugin) => plugin.name === 'mcp')!;
      assert.deepEqual(mcp.configSchema.required, ['url']);
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/plugins' })).statusCode, 401);
    });

    it('refuses unknown plugins and bad configs at their JSON pointers, and changes nothing', async () => {
      const before = (await t.inject({ method: 'GET', url: '/v1/agents?limit=100' })).json().pagination.total;
      const unknown = await create({ name: 'P', plugins: [{ name: 'teleport' }] });
      assert.equal(unknown.statusCode, 400);
      assert.equal(unknown.json().code, 'validation_failed');
      assert.equal(unknown.json().errors[0].path, '/body/plugins/0/name');
      assert.match(unknown.json().errors[0].message, /available: .*http/);

      const bad = await create({
        name: 'P',
        plugins: [
          { name: 'math' },
          { name: 'http', config: { timeoutMs: 5, allowedHosts: 'example.com', extra: true } },
        ],
      });
      assert.equal(bad.statusCode, 400);
      const paths = bad.json().errors.map((error: { path: string }) => error.path);
      assert.ok(paths.includes('/body/plugins/1/config/timeoutMs'), paths.join());
      assert.ok(paths.includes('/body/plugins/1/config/allowedHosts'), paths.join());
      assert.ok(paths.some((path: string) => path.startsWith('/body/plugins/1/config')));

      const twice = await create({ name: 'P', plugins: [{ name: 'math' }, { name: 'math' }] });
      assert.equal(twice.statusCode, 400);
      assert.equal(twice.json().errors[0].path, '/body/plugins/1/name');

      const badSecret = await create({
        name: 'P',
        plugins: [{ name: 'math', secrets: { token: 'abcdefghijklmnop' } }],
      });
      assert.equal(badSecret.statusCode, 400);
      assert.match(badSecret.json().errors[0].path, /^\/body\/plugins\/0\/secrets/);

      const agent = await t.newAgent({ plugins: [{ name: 'math' }] });
      const patch = await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${agent.id}`,
        payload: { plugins: [{ name: 'clock', config: { defaultTimeZone: 7 } }] },
      });
      assert.equal(patch.statusCode, 400);
      assert.equal(patch.json().errors[0].path, '/body/plugins/0/config/defaultTimeZone');
      const after = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}` })).json();
      assert.deepEqual(
        after.plugins.map((plugin: { name: string }) => plugin.name),
        ['math'],
      );
      const total = (await t.inject({ method: 'GET', url: '/v1/agents?limit=100' })).json().pagination.total;
      assert.equal(total, before + 1);
    });

    it('runs a tool the message asks for and answers with its result', async () => {
      const agent = await t.newAgent({ plugins: [{ name: 'math' }, { name: 'clock' }] });
      const response = await send(agent.id, {
        text: 'Please add these.\n/tool calculate {"expression": "0.1 + 0.2"}',
        userId: 'u1',
      });
      assert.equal(response.statusCode, 200, response.body);
      const reply = response.json();
      assert.equal(reply.toolCalls.length, 1);
      const [call] = reply.toolCalls;
      assert.equal(call.name, 'calculate');
      assert.deepEqual(call.input, { expression: '0.1 + 0.2' });
      assert.deepEqual(call.output, { expression: '0.1 + 0.2', result: '0.3' });
      assert.ok(Number.isInteger(call.durationMs));
      assert.ok(reply.text.includes('calculate returned'), reply.text);
      assert.ok(reply.text.includes('"result":"0.3"'), reply.text);
      assert.equal(reply.finishReason, 'stop');
    });

    it('gives the model a readable error for a bad input, an unknown tool or a failing tool', async () => {
      const agent = await t.newAgent({ plugins: [{ name: 'math' }] });
      const reply = (
        await send(agent.id, {
          text: '/tool calculate {"expression": "import(1)"}\n/tool calculate {"wrong": 1}\n/tool teleport {}\n/tool calculate {oops',
        })
      ).json();
      assert.equal(reply.toolCalls.length, 4);
      assert.match(reply.toolCalls[0].error, /not allowed/);
      assert.match(reply.toolCalls[1].error, /does not match the tool's schema/);
      assert.match(reply.toolCalls[2].error, /no tool named teleport/);
      assert.match(reply.toolCalls[3].error, /not valid JSON/);
      assert.ok(reply.toolCalls.every((call: { output?: unknown }) => call.output === undefined));
      assert.ok(reply.text.includes('calculate failed'), reply.text);
    });

    it('streams tool.called and tool.completed events between started and completed', async () => {
      const agent = await t.newAgent({ plugins: [{ name: 'clock', config: { defaultTimeZone: 'Asia/Tokyo' } }] });
      const response = await fetch(`${base}/v1/agents/${agent.id}/messages`, {
        method: 'POST',
        headers: { ...t.owner.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'time?\n/tool current_time', stream: true }),
      });
      assert.equal(response.status, 200);
      const events = await readEvents(response.body!).rest();
      const names = events.map((event) => event.event);
      assert.deepEqual(names.slice(0, 3), ['message.started', 'tool.called', 'tool.completed']);
      assert.equal(names.at(-1), 'message.completed');
      const id = events[0]!.data.id;
      const called = events[1]!.data;
      const completed = events[2]!.data;
      assert.equal(called.id, id);
      assert.equal(called.name, 'current_time');
      assert.equal(completed.toolCallId, called.toolCallId);
      assert.equal(completed.output.timeZone, 'Asia/Tokyo');
      assert.match(completed.output.local, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+09:00$/);
      const final = events.at(-1)!.data;
      const { id: _replyId, ...completedCall } = completed;
      assert.deepEqual(final.toolCalls, [completedCall]);
    });

    it('stores tool turns between the message and the answer, lists them and shows them to the next reply', async () => {
      const agent = await t.newAgent({ plugins: [{ name: 'math' }] });
      await send(agent.id, { text: '/tool calculate {"expression": "6*7"}', userId: 'ana' });
      const turns = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/messages?userId=ana` })).json().data;
      assert.deepEqual(
        turns.map((turn: { role: string }) => turn.role),
        ['agent', 'tool', 'user'],
      );
      assert.equal(turns[1].text, '');
      assert.equal(turns[1].tool.name, 'calculate');
      assert.deepEqual(turns[1].tool.output, { expression: '6*7', result: '42' });
      // The builtin model quotes the last user turn of the history it is given: the tool turn did not break the exchange.
      const next = (await send(agent.id, { text: 'and now?', userId: 'ana' })).json();
      assert.ok(next.text.includes('Earlier you said'), next.text);
    });

    it('ends a tool at its time-out, and caps its output with a marker', async () => {
      const agent = await t.newAgent({ plugins: [{ name: 'testing' }] });
      const reply = (await send(agent.id, { text: '/tool wait {"label": "timeout"}\n/tool big' })).json();
      assert.match(reply.toolCalls[0].error, /did not finish within 1000 ms/);
      assert.ok(aborted.includes('timeout'), 'the tool was told to stop');
      const output = reply.toolCalls[1].output as string;
      assert.ok(output.startsWith('x'.repeat(1000)));
      assert.match(output, /\[truncated: the output was 5000 bytes; only the first 1000 are shown\]$/);
    });

    it('never shows a plugin secret to the model, in a reply or in the log', async () => {
      const secret = 'sekret-token-6d1f0b';
      const agent = await t.newAgent({ plugins: [{ name: 'testing', secrets: { token: secret } }] });
      assert.equal(agent.plugins[0].secrets.token, '••••0b'.replace('0b', '1f0b'));
      const response = await send(agent.id, { text: '/tool leaky\n/tool echo_secret', userId: 'u1' });
      assert.equal(response.statusCode, 200);
      assert.ok(!response.body.includes(secret));
      assert.equal(response.json().toolCalls[0].error, 'The tool failed unexpectedly.');
      assert.deepEqual(response.json().toolCalls[1].output, { note: 'the token is ••••' });
      const history = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/messages?userId=u1` });
      assert.ok(!history.body.includes(secret));
      assert.ok(!t.logs!.text().includes(secret));
    });

    it('aborts the running tool when the client goes away, and stores the partial reply', async () => {
      const agent = await t.newAgent({ plugins: [{ name: 'testing' }] });
      // A label of this backend's own: the lists outlive each suite.
      const label = `abort-${backend.name}`;
      const message = await sendStreamedMessage(base, t.owner.key, agent.id, {
        text: `/tool wait {"label": "${label}"}`,
        userId: 'quitter',
      });
      assert.equal((await message.events!.next())?.event, 'message.started');
      assert.equal((await message.events!.next())?.event, 'tool.called');
      assert.notEqual(await waitFor(() => started.includes(label), 5_000), null, 'the tool started');
      message.hangUp();
      assert.notEqual(await waitFor(() => aborted.includes(label), 5_000), null, 'the tool was told to stop');
      const turns = await eventually(async () => {
        const stored = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/messages?userId=quitter` })).json()
          .data;
        return stored.length > 0 ? stored : null;
      }, 'the aborted reply to be stored');
      assert.deepEqual(
        turns.map((turn: { role: string }) => turn.role),
        ['agent', 'tool', 'user'],
      );
      assert.equal(turns[0].finishReason, 'aborted');
      assert.match(turns[1].tool.error, /aborted/);
    });

    it('does without tools when the agent has none enabled', async () => {
      const agent = await t.newAgent({ plugins: [{ name: 'math', enabled: false }] });
      const reply = (await send(agent.id, { text: '/tool calculate {"expression": "1+1"}' })).json();
      assert.deepEqual(reply.toolCalls, []);
      assert.ok(reply.text.includes('You said'));
    });
  });
}
