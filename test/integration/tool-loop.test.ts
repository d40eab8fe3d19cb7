import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startFakeAnthropicServer } from '../helpers/fake-anthropic-server.js';
import { startFakeMcpServer, type FakeMcpServer } from '../helpers/fake-mcp-server.js';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeProviderServer } from '../helpers/fake-provider-server.js';
import { startLoopbackHttpServer, type LoopbackHttpServer } from '../helpers/loopback-http-server.js';
import { sendStreamedMessage } from '../helpers/message-stream.js';
import { readEvents } from '../helpers/sse-client.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';

/**
 * The whole tool loop over real HTTP: a model (the fake OpenAI-compatible and
 * Anthropic servers) asks for a tool, agentd runs it (math, an MCP server on
 * loopback, the http plugin) and sends the result back, and the model answers.
 * Storage plays no part here, so SQLite alone.
 */

const wireFormats = [
  {
    label: 'OpenAI Chat Completions',
    start: startFakeOpenAiServer,
    provider: 'openai-compatible',
    model: 'test-model',
  },
  { label: 'Anthropic Messages', start: startFakeAnthropicServer, provider: 'anthropic', model: 'claude-haiku-4-5' },
] as const;

for (const wire of wireFormats) {
  describe(`the tool loop with the ${wire.label} wire format`, () => {
    let fake: FakeProviderServer;
    let t: TestApp;
    let base: string;
    before(async () => {
      fake = await wire.start();
      t = await createTestApp({
        env: {
          AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
          ANTHROPIC_API_KEY: 'sk-ant-test-key-0123456789',
          ANTHROPIC_BASE_URL: fake.origin,
          AGENTD_DEFAULT_MODEL: `${wire.provider}/${wire.model}`,
          AGENTD_PROVIDER_RETRY_DELAY_MS: '1',
        },
      });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });
    after(async () => {
      await t?.close();
      await fake?.close();
    });
    beforeEach(() => fake.reset());

    it('offers the tools, runs the one asked for, sends its result back and answers', async () => {
      const agent = await t.newAgent({ plugins: [{ name: 'math' }, { name: 'clock' }] });
      fake.enqueue(
        { reply: 'Let me compute. ', toolCalls: [{ id: 'call_1', name: 'calculate', input: { expression: '2^70' } }] },
        { reply: 'It is 1180591620717411303424.' },
      );
      const response = await t.inject({
        method: 'POST',
        url: `/v1/agents/${agent.id}/messages`,
        payload: { text: 'What is 2^70?', userId: 'u1' },
      });
      assert.equal(response.statusCode, 200, response.body);
      const reply = response.json();
      assert.equal(reply.text, 'Let me compute. It is 1180591620717411303424.');
      assert.equal(reply.finishReason, 'stop');
      assert.deepEqual(
        reply.toolCalls.map((call: { toolCallId: string; name: string; output: unknown }) => [
          call.toolCallId,
          call.name,
          call.output,
        ]),
        [['call_1', 'calculate', { expression: '2^70', result: '1180591620717411303424' }]],
      );
      assert.equal(fake.requests.length, 2);
      const [first, second] = fake.requests;
      assert.deepEqual(first!.offeredTools.map((tool) => tool.name).sort(), ['calculate', 'current_time']);
      assert.deepEqual(second!.toolCalls, [{ id: 'call_1', name: 'calculate', input: { expression: '2^70' } }]);
      assert.equal(second!.toolResults.length, 1);
      assert.equal(second!.toolResults[0]!.toolCallId, 'call_1');
      assert.ok(second!.toolResults[0]!.content.includes('1180591620717411303424'));
      // Usage adds up over both model calls.
      assert.ok(reply.usage.inputTokens >= 24, JSON.stringify(reply.usage));
    });

    it('streams the tool events between the deltas, and the next message sees what was done', async () => {
      const agent = await t.newAgent({ plugins: [{ name: 'math' }] });
      fake.enqueue(
        { toolCalls: [{ id: 'call_a', name: 'calculate', input: { expression: '3*3' } }] },
        { reply: 'Nine.' },
        { reply: 'I remember.' },
      );
      const response = await fetch(`${base}/v1/agents/${agent.id}/messages`, {
        method: 'POST',
        headers: { ...t.owner.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ text: '3*3?', userId: 'ana', stream: true }),
      });
      const events = await readEvents(response.body!).rest();
      assert.deepEqual(
        events.map((event) => event.event),
        ['message.started', 'tool.called', 'tool.completed', 'message.delta', 'message.completed'],
      );
      assert.deepEqual(events[1]!.data.input, { expression: '3*3' });
      assert.equal(events[2]!.data.output.result, '9');

      await t.inject({
        method: 'POST',
        url: `/v1/agents/${agent.id}/messages`,
        payload: { text: 'and?', userId: 'ana' },
      });
      const later = fake.requests[2]!;
      assert.deepEqual(later.toolCalls, [{ id: 'call_a', name: 'calculate', input: { expression: '3*3' } }]);
      assert.ok(later.toolResults[0]!.content.includes('"result":"9"'));
    });

    it('stops offering tools after the step cap and asks for an answer', async () => {
      const agent = await t.newAgent({
        plugins: [{ name: 'math' }],
        model: { provider: wire.provider, name: wire.model, maxSteps: 2 },
      });
      fake.setDefault((request) =>
        request.offeredTools.length > 0
          ? { toolCalls: [{ name: 'calculate', input: { expression: '1+1' } }] }
          : { reply: 'Enough tools.' },
      );
      const reply = (
        await t.inject({ method: 'POST', url: `/v1/agents/${agent.id}/messages`, payload: { text: 'loop' } })
      ).json();
      assert.equal(reply.text, 'Enough tools.');
      assert.equal(reply.toolCalls.length, 2);
      assert.deepEqual(
        fake.requests.map((request) => request.offeredTools.length > 0),
        [true, true, false],
      );
    });

    it('tells the model which tools are unavailable when their server cannot be reached', async () => {
      const agent = await t.newAgent({
        plugins: [{ name: 'math' }, { name: 'mcp', config: { url: 'http://127.0.0.1:9/mcp', prefix: 'gone' } }],
      });
      fake.enqueue({ reply: 'The dictionary is down.' });
      const response = await t.inject({
        method: 'POST',
        url: `/v1/agents/${agent.id}/messages`,
        payload: { text: 'define lexicon' },
      });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json().text, 'The dictionary is down.');
      const [request] = fake.requests;
      assert.deepEqual(
        request!.offeredTools.map((tool) => tool.name),
        ['calculate'],
      );
      // A note of this message only: in the last message, where the prompt's volatile parts go.
      const message = JSON.stringify(request!.body.messages.at(-1));
      assert.match(message, /unavailable for this message/);
      assert.match(message, /the mcp plugin's tools are unavailable: .*127\.0\.0\.1/);
      assert.doesNotMatch(JSON.stringify(request!.body.system ?? request!.body.messages[0]), /unavailable/);
    });

    it('feeds invalid tool-call JSON back to the model as an error', async () => {
      const agent = await t.newAgent({ plugins: [{ name: 'math' }] });
      fake.enqueue({ toolCalls: [{ name: 'calculate', inputText: '{"expression": ' }] }, { reply: 'Sorry.' });
      const reply = (
        await t.inject({ method: 'POST', url: `/v1/agents/${agent.id}/messages`, payload: { text: 'x' } })
      ).json();
      assert.equal(reply.text, 'Sorry.');
      assert.match(reply.toolCalls[0].error, /not valid JSON/);
      assert.match(fake.requests[1]!.toolResults[0]!.content, /not valid JSON/);
    });
  });
}

describe('plugins that reach other servers, through an agent', () => {
  let mcp: FakeMcpServer;
  let page: LoopbackHttpServer;
  let open: TestApp;
  let guarded: TestApp;
  const mcpSecret = 'Bearer mcp-secret-41f7a2';
  before(async () => {
    mcp = await startFakeMcpServer();
    page = await startLoopbackHttpServer((_request, response) => {
      response.setHeader('content-type', 'text/html');
      response.end('<html><body><h1>Opening hours</h1><p>We open at nine.</p><script>x()</script></body></html>');
    });
    // Loopback servers stand in for the outside world only where the operator allows private addresses.
    open = await createTestApp({ env: { AGENTD_OUTBOUND_ALLOW_PRIVATE: 'true' }, captureLogs: true });
    guarded = await createTestApp({});
  });
  after(async () => {
    await open?.close();
    await guarded?.close();
    await mcp?.close();
    await page?.close();
  });

  const send = (t: TestApp, agentId: string, text: string) =>
    t.inject({ method: 'POST', url: `/v1/agents/${agentId}/messages`, payload: { text } });

  it("calls an MCP server's allowed tools under the prefix, with the secret headers, never showing them", async () => {
    const agent = await open.newAgent({
      plugins: [
        {
          name: 'mcp',
          config: { url: mcp.url, prefix: 'dict', tools: ['add'] },
          secrets: { Authorization: mcpSecret },
        },
      ],
    });
    const response = await send(
      open,
      agent.id,
      '/tool dict_add {"a": 2, "b": 40}\n/tool dict_lookup_word {"word": "lexicon"}',
    );
    assert.equal(response.statusCode, 200, response.body);
    const [add, hidden] = response.json().toolCalls;
    assert.equal(add.error, undefined, add.error);
    assert.ok(JSON.stringify(add.output).includes('42'), JSON.stringify(add.output));
    assert.match(hidden.error, /no tool named dict_lookup_word/);
    assert.deepEqual(
      mcp.calls.map((call) => call.tool),
      ['add'],
    );
    assert.equal(mcp.calls[0]!.headers.authorization, mcpSecret);
    assert.ok(!response.body.includes(mcpSecret));
    assert.ok(!open.logs!.text().includes(mcpSecret));
  });

  it('turns a stopped MCP server into a tool error, and closes the session when the agent changes', async () => {
    const agent = await open.newAgent({ plugins: [{ name: 'mcp', config: { url: mcp.url } }] });
    const first = (await send(open, agent.id, '/tool mcp_add {"a": 1, "b": 1}')).json();
    assert.equal(first.toolCalls[0].error, undefined);
    const session = mcp.sessionsOpened.at(-1)!;

    await open.inject({ method: 'PATCH', url: `/v1/agents/${agent.id}`, payload: { name: 'Renamed' } });
    assert.ok(mcp.sessionsEnded.includes(session), 'the old version of the agent let go of its session');

    await send(open, agent.id, '/tool mcp_add {"a": 1, "b": 2}');
    await mcp.close();
    const down = await send(open, agent.id, '/tool mcp_add {"a": 1, "b": 3}');
    assert.equal(down.statusCode, 200, down.body);
    assert.match(down.json().toolCalls[0].error, /MCP server/);
    await mcp.restart();
  });

  it('fetches a page as readable text where allowed, and refuses loopback by default', async () => {
    const text = `/tool fetch_url {"url": "${page.origin}/hours"}`;
    const allowed = await open.newAgent({ plugins: [{ name: 'http' }] });
    const fetched = (await send(open, allowed.id, text)).json().toolCalls[0];
    assert.equal(fetched.error, undefined, fetched.error);
    assert.match(fetched.output.text, /OPENING HOURS[\s\S]*We open at nine\./i);
    assert.ok(!fetched.output.text.includes('x()'));

    const received = page.received.length;
    const agent = await guarded.newAgent({ plugins: [{ name: 'http' }] });
    for (const url of [page.origin, 'http://localhost:9/', 'http://[::1]:9/', 'http://169.254.169.254/latest']) {
      const refused = (await send(guarded, agent.id, `/tool fetch_url {"url": "${url}"}`)).json().toolCalls[0];
      assert.match(refused.error, /refused|not allowed|private|loopback|link-local/i, `${url}: ${refused.error}`);
    }
    assert.equal(page.received.length, received, 'nothing reached the loopback server');
  });

  it('ends a slow MCP call when the client goes away, and stores the partial reply', async () => {
    const agent = await open.newAgent({ plugins: [{ name: 'mcp', config: { url: mcp.url } }] });
    await open.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(open.app.server.address() as AddressInfo).port}`;
    const release = mcp.holdCalls();
    const message = await sendStreamedMessage(base, open.owner.key, agent.id, {
      text: '/tool mcp_add {"a": 5, "b": 5}',
      userId: 'gone',
    });
    assert.equal((await message.events!.next())?.event, 'message.started');
    assert.equal((await message.events!.next())?.event, 'tool.called');
    message.hangUp();
    const stored = await waitFor(async () => {
      const turns = (await open.inject({ method: 'GET', url: `/v1/agents/${agent.id}/messages?userId=gone` })).json()
        .data;
      return turns.length === 3 && turns[0].finishReason === 'aborted' && /aborted/.test(turns[1].tool.error);
    }, 5_000);
    release();
    assert.notEqual(stored, null, 'the aborted reply and its tool turn were stored');
  });
});
