import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildApp } from '../../src/app.js';
import { createDependencies, type AppDeps } from '../../src/dependencies.js';
import type { App } from '../../src/http/app-instance.js';
import { createLogger } from '../../src/logger.js';
import type { Scope } from '../../src/services/context.js';
import { postgresSkip } from '../helpers/environment.js';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeProviderServer } from '../helpers/fake-provider-server.js';
import { startRoundRobinProxy, type RoundRobinProxy } from '../helpers/round-robin-proxy.js';
import { suiteLogger } from '../helpers/suite-log.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/wait.js';

/**
 * agentd's MCP server as MCP clients meet it: the SDK's own Client over
 * Streamable HTTP against a listening agentd.
 */

async function listen(app: App): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

async function connect(origin: string, key: string): Promise<Client> {
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('/v1/mcp', origin), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

function textOf(result: unknown): string {
  const content = ((result as { content?: unknown }).content ?? []) as Array<{ type: string; text?: string }>;
  return content.map((part) => part.text ?? '').join('');
}

describe('the MCP server', () => {
  let fake: FakeProviderServer;
  let t: TestApp;
  let origin: string;
  let client: Client;

  before(async () => {
    fake = await startFakeOpenAiServer();
    t = await createTestApp({ env: { AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl } });
    origin = await listen(t.app);
    client = await connect(origin, t.owner.key);
  });
  after(async () => {
    await client?.close();
    await t?.close();
    await fake?.close();
  });
  beforeEach(() => fake.reset());

  const providerAgent = (fields: Record<string, unknown> = {}) =>
    t.newAgent({ model: { provider: 'openai-compatible', name: 'test-model' }, ...fields });

  it('lists its tools, an ask_<agent> tool for each exposed agent with unique names and the bio', async () => {
    const first = await providerAgent({ name: 'Research Desk', bio: 'Finds papers.', mcp: { exposed: true } });
    const second = await providerAgent({ name: 'research desk!', mcp: { exposed: true } });
    await providerAgent({ name: 'Hidden' });
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    for (const fixed of ['list_agents', 'get_agent', 'send_message']) assert.ok(names.includes(fixed), fixed);
    const ask = tools.find((tool) => tool.name === 'ask_research_desk');
    assert.ok(ask, names.join(', '));
    assert.match(ask.description ?? '', /Finds papers\./);
    const other = names.find((name) => name.startsWith('ask_research_desk_'));
    assert.ok(other, 'the second agent of the same name gets a name of its own');
    assert.ok(other.endsWith(second.id.slice(-8).toLowerCase()));
    assert.ok(!names.some((name) => name.includes('hidden')), 'agents not exposed have no tool');
    assert.ok(first.mcp.exposed);
    // Each ask tool names its agent, so a client can match tools to agents whatever their names.
    assert.equal(ask._meta?.['agentd/agentId'], first.id);
    assert.equal(tools.find((tool) => tool.name === other)?._meta?.['agentd/agentId'], second.id);
    assert.equal(tools.find((tool) => tool.name === 'list_agents')?._meta, undefined);
  });

  it('answers send_message with the reply, streaming it as progress notifications, as a run with trigger mcp', async () => {
    const agent = await providerAgent();
    fake.enqueue({ reply: 'One two three four.' });
    const progress: Array<{ progress: number; message?: string }> = [];
    const result = await client.callTool(
      { name: 'send_message', arguments: { agentId: agent.id, text: 'Count', userId: 'u-mcp' } },
      undefined,
      { onprogress: (notification) => progress.push(notification) },
    );
    assert.equal(result.isError, undefined);
    assert.equal(textOf(result), 'One two three four.');
    const reply = (result.structuredContent as { reply: any }).reply;
    assert.equal(reply.text, 'One two three four.');
    assert.deepEqual(reply.citations, []);
    assert.ok(progress.length >= 2, `progress notifications arrived (${progress.length})`);
    assert.equal(progress.map((each) => each.message).join(''), 'One two three four.');
    assert.ok(progress.every((each, index) => index === 0 || each.progress > progress[index - 1]!.progress));
    const run = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/runs/${reply.runId}` })).json();
    assert.equal(run.trigger, 'mcp');
    assert.equal(run.status, 'completed');
    const history = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/messages?userId=u-mcp` })).json();
    assert.equal(history.data[0].text, 'One two three four.', 'the exchange is stored as any other');
  });

  it('answers an ask_<agent> tool call as the agent, with memory of the conversation', async () => {
    const agent = await t.newAgent({
      name: 'Echo Helper',
      model: { provider: 'builtin', name: 'echo' },
      mcp: { exposed: true },
    });
    const { tools } = await client.listTools();
    const tool = tools.find((each) => each.description?.includes('Echo Helper') || each.title === 'Ask Echo Helper');
    assert.ok(tool);
    const result = await client.callTool({ name: tool.name, arguments: { text: 'hello there', userId: 'u-ask' } });
    assert.equal(result.isError, undefined, textOf(result));
    assert.match(textOf(result), /hello there/);
    const history = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/messages?userId=u-ask` })).json();
    assert.equal(history.data.length, 2);
  });

  it('reads agents with list_agents, get_agent and resources, secrets masked', async () => {
    const agent = await providerAgent({
      name: 'Keeper',
      plugins: [
        {
          name: 'mcp',
          config: { url: 'https://tools.example.com/mcp' },
          secrets: { authorization: 'sk-very-secret-1234' },
        },
      ],
    });
    const listed = await client.callTool({ name: 'list_agents', arguments: {} });
    assert.ok((listed.structuredContent as any).agents.some((each: any) => each.id === agent.id));
    const got = await client.callTool({ name: 'get_agent', arguments: { agentId: agent.id } });
    assert.equal((got.structuredContent as any).agent.name, 'Keeper');
    assert.ok(!JSON.stringify(got).includes('sk-very-secret-1234'));
    const { resources } = await client.listResources();
    const resource = resources.find((each) => each.uri === `agentd://agents/${agent.id}`);
    assert.ok(resource);
    const read = await client.readResource({ uri: resource.uri });
    const text = (read.contents[0] as { text: string }).text;
    assert.equal(JSON.parse(text).id, agent.id);
    assert.ok(!text.includes('sk-very-secret-1234'));
  });

  it('answers bad arguments and unknown agents with an error result, not a failed request', async () => {
    const bad = await client.callTool({ name: 'send_message', arguments: { agentId: 'agt_x' } });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /text/);
    const missing = await client.callTool({
      name: 'send_message',
      arguments: { agentId: 'agt_01JAAAAAAAAAAAAAAAAAAAAAAA', text: 'hi' },
    });
    assert.equal(missing.isError, true);
    assert.match(textOf(missing), /not found/i);
  });

  it('refuses a wrong key with 401', async () => {
    await assert.rejects(connect(origin, 'agd_wrong'), (error: unknown) => {
      assert.ok(error instanceof StreamableHTTPError, String(error));
      assert.equal(error.code, 401);
      return true;
    });
  });

  it('answers GET and DELETE with 405: there is no session and no stream of server messages', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const response = await t.inject({ method, url: '/v1/mcp' });
      assert.equal(response.statusCode, 405);
      assert.equal(response.headers.allow, 'POST');
      assert.equal(response.json().code, 'method_not_allowed');
    }
  });

  it('refuses a body that is not exactly application/json with a 415 problem, as the transport would refuse it', async () => {
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    for (const contentType of [
      'text/plain',
      'application/merge-patch+json',
      // Two media types in one header (or two headers, which a web Request joins so): not one JSON body.
      'application/json; charset=latin1, application/vnd.api+json',
    ]) {
      const response = await t.inject({
        method: 'POST',
        url: '/v1/mcp',
        headers: { 'content-type': contentType, accept: 'application/json, text/event-stream' },
        payload: list,
      });
      assert.equal(response.statusCode, 415, `${contentType}: ${response.body}`);
      assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
      assert.equal(response.json().code, 'unsupported_media_type');
    }
    const plain = await t.inject({
      method: 'POST',
      url: '/v1/mcp',
      headers: { 'content-type': 'application/json; charset=utf-8', accept: 'application/json, text/event-stream' },
      payload: list,
    });
    assert.equal(plain.statusCode, 200, plain.body);
  });

  it('shows a key of another account none of this account’s agents', async () => {
    const agent = await providerAgent({ name: 'Private Agent', mcp: { exposed: true } });
    const stranger = await t.newAccount();
    const other = await connect(origin, stranger.key);
    try {
      const { tools } = await other.listTools();
      assert.deepEqual(
        tools.map((tool) => tool.name),
        ['list_agents', 'get_agent', 'send_message'],
      );
      const listed = await other.callTool({ name: 'list_agents', arguments: {} });
      assert.deepEqual((listed.structuredContent as any).agents, []);
      const sent = await other.callTool({ name: 'send_message', arguments: { agentId: agent.id, text: 'hi' } });
      assert.equal(sent.isError, true);
      assert.match(textOf(sent), /not found/i);
      const got = await other.callTool({ name: 'get_agent', arguments: { agentId: agent.id } });
      assert.equal(got.isError, true);
      const { resources } = await other.listResources();
      assert.deepEqual(resources, []);
    } finally {
      await other.close();
    }
  });

  it('MCP listings need agents:read: a key sees only the tools, agents and bios its scopes let it use', async () => {
    const agent = await providerAgent({ name: 'Ledger Desk', bio: 'Keeps the books.', mcp: { exposed: true } });
    const clientWith = (scopes: Scope[]) => t.newKey(t.owner.accountId, scopes).then(({ key }) => connect(origin, key));
    const keysOnly = await clientWith(['keys:manage']);
    const sendOnly = await clientWith(['messages:send']);
    const readOnly = await clientWith(['agents:read']);
    try {
      // Nothing it may use: empty lists, not errors; and a call names no agent, whether its tool exists or not.
      assert.deepEqual((await keysOnly.listTools()).tools, []);
      assert.deepEqual((await keysOnly.listResources()).resources, []);
      await assert.rejects(keysOnly.readResource({ uri: `agentd://agents/${agent.id}` }), /agents:read/);
      for (const name of ['ask_ledger_desk', 'ask_nobody_at_all']) {
        const called = await keysOnly.callTool({ name, arguments: { text: 'hi' } });
        assert.equal(called.isError, true);
        assert.equal((called.structuredContent as any).error.code, 'insufficient_scope', name);
      }

      // messages:send: the tools that send, its agents offered by name only, without their bios or ids.
      const sendTools = (await sendOnly.listTools()).tools;
      const sendNames = sendTools.map((tool) => tool.name);
      assert.equal(sendNames[0], 'send_message');
      assert.ok(sendNames.includes('ask_ledger_desk'), sendNames.join(', '));
      assert.ok(
        sendNames.slice(1).every((name) => name.startsWith('ask_')),
        sendNames.join(', '),
      );
      const ask = sendTools.find((tool) => tool.name === 'ask_ledger_desk')!;
      assert.doesNotMatch(JSON.stringify(ask), /Keeps the books|agt_/);
      assert.deepEqual((await sendOnly.listResources()).resources, []);
      // Its answer does not name the agent's id either.
      const asked = await sendOnly.callTool({ name: 'ask_ledger_desk', arguments: { text: 'hi' } });
      assert.equal(asked.isError ?? false, false, JSON.stringify(asked));
      assert.doesNotMatch(JSON.stringify(asked), /agt_/);

      // agents:read: the reading tools and the profiles, and no tool that sends.
      assert.deepEqual(
        (await readOnly.listTools()).tools.map((tool) => tool.name),
        ['list_agents', 'get_agent'],
      );
      const { resources } = await readOnly.listResources();
      assert.ok(resources.some((each) => each.uri === `agentd://agents/${agent.id}`));
    } finally {
      await Promise.all([keysOnly.close(), sendOnly.close(), readOnly.close()]);
    }
  });

  it('stops the model call when the client cancels the tool call, and cancels the run', async () => {
    const agent = await providerAgent();
    fake.enqueue({ reply: 'a b c d e f g h i j k l m n o p', tokenDelayMs: 200 });
    const controller = new AbortController();
    const progress: string[] = [];
    const call = client.callTool(
      { name: 'send_message', arguments: { agentId: agent.id, text: 'Talk slowly' } },
      undefined,
      {
        signal: controller.signal,
        onprogress: (notification) => {
          progress.push(notification.message ?? '');
          if (progress.length === 2) controller.abort('enough');
        },
      },
    );
    await assert.rejects(call);
    await fake.waitForAbort(0);
    assert.equal(fake.requests[0]!.aborted, true, 'the provider saw the model call end early');
    await eventually(async () => {
      const runs = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/runs?trigger=mcp` })).json();
      return runs.data[0]?.status === 'cancelled' ? true : null;
    }, 'the run to end as cancelled');
  });

  const mcpHeaders = (sessionId: string) => ({
    authorization: `Bearer ${t.owner.key}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-session-id': sessionId,
  });

  it('cancels a call named by a notifications/cancelled of its session, accepted with an empty 202', async () => {
    const agent = await providerAgent();
    fake.enqueue({ reply: 'a b c d e f g h i j k l m n o p', tokenDelayMs: 200 });
    const sessionId = `mcps_cancel-${agent.id}`;
    // The call's own connection stays open: only the notification, on a request of its own, can stop it.
    const call = fetch(`${origin}/v1/mcp`, {
      method: 'POST',
      headers: mcpHeaders(sessionId),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 41,
        method: 'tools/call',
        params: { name: 'send_message', arguments: { agentId: agent.id, text: 'Talk slowly' } },
      }),
    });
    await eventually(async () => (fake.requests.length > 0 ? true : null), 'the model call to begin');
    const cancelled = await fetch(`${origin}/v1/mcp`, {
      method: 'POST',
      headers: mcpHeaders(sessionId),
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 41 } }),
    });
    assert.equal(cancelled.status, 202);
    assert.equal(await cancelled.text(), '', 'a notification is accepted with no body');
    assert.equal(cancelled.headers.get('content-type'), null);
    const answered = await call;
    assert.equal(answered.status, 200);
    assert.match(String(answered.headers.get('content-type')), /^application\/json/);
    assert.equal(answered.headers.get('mcp-session-id'), sessionId);
    const response = (await answered.json()) as { id: number; result: { isError?: boolean } };
    assert.equal(response.id, 41);
    assert.equal(response.result.isError, true);
    assert.match(textOf(response.result), /cancelled/);
    await fake.waitForAbort(0);
    assert.equal(fake.requests[0]!.aborted, true, 'the provider saw the model call end early');
  });

  it('answers a call the shutdown deadline cuts with a JSON-RPC error, not a hung request', async () => {
    const own = await createTestApp({ env: { AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl } });
    try {
      const ownOrigin = await listen(own.app);
      const agent = await own.newAgent({ model: { provider: 'openai-compatible', name: 'test-model' } });
      fake.enqueue({ reply: 'a b c d e f g h i j k l m n o p', tokenDelayMs: 200 });
      const call = fetch(`${ownOrigin}/v1/mcp`, {
        method: 'POST',
        headers: { ...mcpHeaders('mcps_shutdown'), authorization: `Bearer ${own.owner.key}` },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 'slow',
          method: 'tools/call',
          params: { name: 'send_message', arguments: { agentId: agent.id, text: 'Talk slowly' } },
        }),
      });
      await eventually(async () => (fake.requests.length > 0 ? true : null), 'the model call to begin');
      // As `agentd serve` drains on SIGTERM, with a deadline that passes while the call runs.
      const drained = own.deps.shutdown.drain(
        {
          close: () => own.app.close(),
          closeIdleConnections: () => own.app.server.closeIdleConnections(),
          closeAllConnections: () => own.app.server.closeAllConnections(),
        },
        10,
      );
      const answered = await call;
      assert.equal(answered.status, 200);
      const response = (await answered.json()) as { id: string; error?: { code: number; message: string } };
      assert.equal(response.id, 'slow');
      assert.equal(response.error?.code, -32000);
      assert.match(response.error?.message ?? '', /shutting down/);
      assert.equal((await drained).timedOut, true);
    } finally {
      await own.deps.close();
    }
  });

  it('keeps working behind a round-robin load balancer over two instances', async () => {
    const secondApp = await buildApp({ config: t.config, deps: t.deps });
    const secondOrigin = await listen(secondApp);
    const proxy = await startRoundRobinProxy([origin, secondOrigin]);
    const balanced = await connect(proxy.url, t.owner.key);
    try {
      const agent = await providerAgent({ name: 'Balanced', mcp: { exposed: true } });
      fake.setDefault({ reply: 'Balanced reply.' });
      for (let round = 0; round < 3; round += 1) {
        const { tools } = await balanced.listTools();
        assert.ok(tools.some((tool) => tool.name === 'ask_balanced'));
        const result = await balanced.callTool({ name: 'ask_balanced', arguments: { text: `round ${round}` } });
        assert.equal(textOf(result), 'Balanced reply.', textOf(result));
      }
      assert.ok(proxy.served.includes(0) && proxy.served.includes(1), 'both instances served requests');
      assert.ok(agent.id);
    } finally {
      await balanced.close();
      await proxy.close();
      await secondApp.close();
    }
  });
});

/**
 * Two instances, each with its own runs, calls and heartbeat, on one
 * PostgreSQL schema, behind a round-robin balancer: a cancellation that
 * reaches the instance not producing the reply still stops it.
 */
describe('MCP cancellation across two instances on one PostgreSQL', { skip: postgresSkip }, () => {
  let fake: FakeProviderServer;
  let first: TestApp;
  let secondDeps: AppDeps;
  let second: App;
  let origins: string[];
  let proxy: RoundRobinProxy;

  before(async () => {
    fake = await startFakeOpenAiServer();
    // A short heartbeat: an instance sees a cancel requested elsewhere at its next one.
    first = await createTestApp({
      backend: 'postgres',
      env: { AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl, AGENTD_RUN_HEARTBEAT_MS: '100' },
    });
    secondDeps = await createDependencies(first.config, {
      logger: suiteLogger() ?? createLogger('silent'),
      database: { searchPath: first.deps.database.schema! },
    });
    second = await buildApp({ config: first.config, deps: secondDeps });
    origins = [await listen(first.app), await listen(second)];
    proxy = await startRoundRobinProxy(origins);
  });
  after(async () => {
    await proxy?.close();
    await second?.close();
    await secondDeps?.close();
    await first?.close();
    await fake?.close();
  });
  beforeEach(() => fake.reset());

  const slowAgent = async () => {
    const agent = await first.newAgent({ model: { provider: 'openai-compatible', name: 'test-model' } });
    fake.enqueue({ reply: 'a b c d e f g h i j k l m n o p q r s t u v w x y z', tokenDelayMs: 200 });
    return agent;
  };

  /** The run of the agent's one MCP call, once it is stored. */
  const mcpRun = (agentId: string) =>
    eventually(async () => {
      const runs = (await first.inject({ method: 'GET', url: `/v1/agents/${agentId}/runs?trigger=mcp` })).json();
      return runs.data[0] ?? null;
    }, 'the call’s run to be stored');

  const endsCancelled = (agentId: string, runId: string) =>
    eventually(async () => {
      const run = (await first.inject({ method: 'GET', url: `/v1/agents/${agentId}/runs/${runId}` })).json();
      return run.status === 'cancelled' ? run : null;
    }, 'the run to end as cancelled');

  it('stops the reply when the SDK client’s cancellation reaches the instance not producing it', async () => {
    const client = await connect(proxy.url, first.owner.key);
    try {
      const agent = await slowAgent();
      const controller = new AbortController();
      let callServedBy: number | undefined;
      let progressCount = 0;
      const call = client.callTool(
        { name: 'send_message', arguments: { agentId: agent.id, text: 'Talk slowly' } },
        undefined,
        {
          signal: controller.signal,
          onprogress: () => {
            progressCount += 1;
            if (progressCount !== 2) return;
            // The call's event stream is the last answer the balancer began: the next request goes to the other.
            callServedBy = proxy.served.at(-1);
            controller.abort('enough');
          },
        },
      );
      await assert.rejects(call);
      await fake.waitForAbort(0);
      assert.equal(fake.requests[0]!.aborted, true, 'the provider saw the model call end early');
      const run = await mcpRun(agent.id);
      const cancelled = await endsCancelled(agent.id, run.id);
      assert.equal(cancelled.reply?.finishReason, 'aborted', 'what was said so far is kept');
      // The reply was produced by the instance that served the call; the cancellation was served by the other one.
      const stored = await first.deps.services.repositories.runs.findById(run.id);
      const producer = [first.deps.services.runs.instanceId, secondDeps.services.runs.instanceId].indexOf(
        stored!.instance_id!,
      );
      assert.equal(producer, callServedBy, 'the call’s instance produced its run');
      assert.equal(proxy.served.at(-1), 1 - callServedBy!, 'the cancellation went to the other instance');
    } finally {
      await client.close();
    }
  });

  for (const session of [true, false]) {
    it(`cancels a call of ${session ? 'a session' : 'no session (named within its API key)'} from the other instance`, async () => {
      const agent = await slowAgent();
      const headers = {
        authorization: `Bearer ${first.owner.key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(session ? { 'mcp-session-id': `mcps_cross-${agent.id}` } : {}),
      };
      const call = fetch(`${origins[0]}/v1/mcp`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'send_message', arguments: { agentId: agent.id, text: 'Talk slowly' } },
        }),
      });
      const run = await mcpRun(agent.id);
      const cancelled = await fetch(`${origins[1]}/v1/mcp`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } }),
      });
      assert.equal(cancelled.status, 202);
      const response = (await (await call).json()) as { id: number; result: { isError?: boolean } };
      assert.equal(response.id, 7);
      assert.equal(response.result.isError, true);
      assert.match(textOf(response.result), /cancelled/);
      await fake.waitForAbort(0);
      assert.equal(fake.requests[0]!.aborted, true, 'the provider saw the model call end early');
      await endsCancelled(agent.id, run.id);
    });
  }
});
