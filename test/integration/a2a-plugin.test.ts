import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import pino from 'pino';
import { createOutboundFetch } from '../../src/outbound/outbound-fetch.js';
import { a2aPlugin } from '../../src/plugins/a2a/index.js';
import type { PluginContext } from '../../src/plugins/plugin.js';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { turnsOf, type FakeProviderServer } from '../helpers/fake-provider-server.js';
import { startLoopbackHttpServer, type LoopbackHttpServer } from '../helpers/loopback-http-server.js';
import { unusedPluginServices } from '../helpers/plugin-context.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Two agentd agents, one asking the other through the `a2a` plugin: the
 * first agent's model calls the tool, the second agent answers over A2A, and
 * its answer comes back as the tool result into the first agent's reply.
 */
describe('the a2a plugin', () => {
  let fake: FakeProviderServer;
  let t: TestApp;
  let origin: string;

  before(async () => {
    fake = await startFakeOpenAiServer();
    // The remote agent is on loopback here; outside tests the SSRF-safe client refuses private addresses.
    t = await createTestApp({
      env: { AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl, AGENTD_OUTBOUND_ALLOW_PRIVATE: 'true' },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await t?.close();
    await fake?.close();
  });

  it('asks a remote A2A agent as a tool and answers with what it said', async () => {
    const model = { provider: 'openai-compatible', name: 'test-model' };
    const expert = await t.newAgent({ name: 'Math Expert', bio: 'Knows arithmetic.', model });
    const asker = await t.newAgent({
      name: 'Front Desk',
      model,
      plugins: [
        {
          name: 'a2a',
          config: { cardUrl: `${origin}/v1/a2a/${expert.id}/.well-known/agent-card.json` },
          secrets: { authorization: `Bearer ${t.owner.key}` },
        },
      ],
    });
    fake.setDefault((request) => {
      const offered = request.offeredTools.map((tool) => tool.name);
      if (offered.includes('a2a_math_expert')) {
        const result = request.toolResults[0];
        return result === undefined
          ? { toolCalls: [{ name: 'a2a_math_expert', input: { text: 'What is six times seven?' } }] }
          : { reply: `The expert says: ${JSON.parse(result.content).answer}` };
      }
      return { reply: 'Six times seven is 42.' };
    });

    const response = await t.inject({
      method: 'POST',
      url: `/v1/agents/${asker.id}/messages`,
      payload: { text: 'Ask the expert what six times seven is.', userId: 'u1' },
    });
    assert.equal(response.statusCode, 200, response.body);
    const reply = response.json();
    assert.equal(reply.text, 'The expert says: Six times seven is 42.');
    assert.equal(reply.toolCalls.length, 1);
    assert.equal(reply.toolCalls[0].name, 'a2a_math_expert');
    assert.equal(reply.toolCalls[0].output.answer, 'Six times seven is 42.');
    assert.match(reply.toolCalls[0].output.taskId, /^run_/);

    const expertRequest = fake.requests.find((request) => request.offeredTools.length === 0);
    assert.ok(expertRequest, 'the expert’s model was asked');
    assert.equal(turnsOf(expertRequest).at(-1), 'user: What is six times seven?');
    const runs = (await t.inject({ method: 'GET', url: `/v1/agents/${expert.id}/runs?trigger=a2a` })).json();
    assert.equal(runs.data.length, 1);
    assert.equal(runs.data[0].status, 'completed');
    assert.ok(!JSON.stringify(reply).includes(t.owner.key), 'the remote’s credentials never show');
  });

  it('tells the model when the remote agent cannot be reached', async () => {
    const asker = await t.newAgent({
      name: 'Lonely',
      model: { provider: 'builtin', name: 'echo' },
      plugins: [{ name: 'a2a', config: { cardUrl: `${origin}/v1/a2a/agt_01JAAAAAAAAAAAAAAAAAAAAAAA/card.json` } }],
    });
    const response = await t.inject({
      method: 'POST',
      url: `/v1/agents/${asker.id}/messages`,
      payload: { text: 'hello' },
    });
    assert.equal(response.statusCode, 200, 'a remote that fails does not fail the reply');
  });
});

/**
 * Where the a2a plugin's secrets go, against two remote agents of our own on
 * loopback: two ports of 127.0.0.1, so two origins. Each serves a card naming
 * its own endpoint, one naming the other's, and one that has moved there.
 */
/** The characters of a remote agent's answer the tool keeps. */
const answerCut = 100_000;

describe('the a2a plugin’s secrets', () => {
  const secrets = { Authorization: 'Bearer a2a-secret-61c0f9', 'X-Api-Key': 'key-a2a-7d3e52' };
  const context: PluginContext = {
    agentId: 'agt_test',
    accountId: 'acc_test',
    fetch: createOutboundFetch({ allowPrivateAddresses: true }),
    searchKnowledge: async () => [],
    clock: { now: () => Date.now() },
    logger: pino({ level: 'silent' }),
    ...unusedPluginServices,
  };
  let first: LoopbackHttpServer;
  let second: LoopbackHttpServer;

  function cardNaming(endpoint: string) {
    return {
      name: 'Remote Expert',
      description: 'Answers questions.',
      version: '1',
      supportedInterfaces: [{ url: endpoint, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      capabilities: { streaming: true },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [],
    };
  }

  /** A remote agent: its cards, and a JSON-RPC endpoint that answers every message with one message. */
  function remoteAgent(self: () => LoopbackHttpServer, other: () => LoopbackHttpServer) {
    return startLoopbackHttpServer((request, response) => {
      const path = new URL(request.path, 'http://x').pathname;
      if (path === '/card-long.json') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(cardNaming(`${self().origin}/rpc-long`)));
      } else if (path === '/card.json' || path === '/card-naming-other.json') {
        const endpoint = `${(path === '/card.json' ? self() : other()).origin}/rpc`;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(cardNaming(endpoint)));
      } else if (path === '/moved.json') {
        response.writeHead(302, { location: `${other().origin}/card.json` });
        response.end();
      } else if (path === '/rpc' || path === '/rpc-long') {
        const { id } = JSON.parse(request.body) as { id: number };
        // The long answer puts the entry's API key across the 100,000 characters the tool keeps of an answer.
        const text = path === '/rpc' ? 'Forty-two.' : `${'x'.repeat(answerCut - 7)}${secrets['X-Api-Key']} and more`;
        const message = { messageId: 'm1', contextId: 'ctx-1', role: 'ROLE_AGENT', parts: [{ text }] };
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id, result: { message } })}\n\n`);
      } else {
        response.writeHead(404);
        response.end();
      }
    });
  }

  before(async () => {
    first = await remoteAgent(
      () => first,
      () => second,
    );
    second = await remoteAgent(
      () => second,
      () => first,
    );
  });
  after(async () => {
    await first?.close();
    await second?.close();
  });

  async function ask(config: Record<string, unknown>) {
    const instance = await a2aPlugin.open(config as never, secrets, context);
    return instance.tools[0]!.execute(
      { text: 'What is six times seven?' },
      { abortSignal: new AbortController().signal },
    );
  }

  function carriesSecret(request: { headers: Record<string, unknown> }): boolean {
    return request.headers.authorization !== undefined || request.headers['x-api-key'] !== undefined;
  }

  it('sends the entry’s headers to the card’s origin, card and endpoint alike', async () => {
    const from = first.received.length;
    assert.deepEqual(await ask({ cardUrl: `${first.origin}/card.json` }), {
      answer: 'Forty-two.',
      taskId: '',
      contextId: 'ctx-1',
    });
    const received = first.received.slice(from);
    assert.deepEqual(
      received.map((request) => [request.method, request.path, carriesSecret(request)]),
      [
        ['GET', '/card.json', true],
        ['POST', '/rpc', true],
      ],
    );
    assert.equal(received[1]!.headers['x-api-key'], secrets['X-Api-Key']);
  });

  it('an a2a card naming another origin gets no secret: its endpoint is asked without them unless listed', async () => {
    const from = second.received.length;
    const answer = await ask({ cardUrl: `${first.origin}/card-naming-other.json` });
    assert.equal((answer as { answer: string }).answer, 'Forty-two.', 'the endpoint was still asked');
    const asked = second.received.slice(from);
    assert.equal(asked.length, 1);
    assert.equal(asked[0]!.path, '/rpc');
    assert.equal(carriesSecret(asked[0]!), false, 'the endpoint another origin names got no secret');

    // Listed in secretOrigins, the other origin is the entry's choice: it gets the headers.
    await ask({ cardUrl: `${first.origin}/card-naming-other.json`, secretOrigins: [second.origin] });
    assert.equal(second.received.at(-1)!.headers['x-api-key'], secrets['X-Api-Key']);
    assert.equal(second.received.at(-1)!.headers.authorization, secrets.Authorization);
  });

  it('a cross-origin redirect carries no secret header: a card that moved to another origin is read without them', async () => {
    const from = second.received.length;
    await ask({ cardUrl: `${first.origin}/moved.json` });
    const received = second.received.slice(from);
    assert.deepEqual(
      received.map((request) => request.path),
      ['/card.json', '/rpc'],
    );
    for (const request of received) assert.equal(carriesSecret(request), false, request.path);
    assert.equal(first.received.at(-1)!.path, '/moved.json');
    assert.equal(carriesSecret(first.received.at(-1)!), true, 'the origin configured got them');
  });

  it('a secret cut at the answer cap is masked: the cut never shows its first characters', async () => {
    const { answer } = (await ask({ cardUrl: `${first.origin}/card-long.json` })) as { answer: string };
    assert.equal(answer.length <= answerCut, true);
    assert.equal(answer.startsWith('x'.repeat(answerCut - 7)), true);
    assert.equal(answer.slice(answerCut - 7), '••••');
    assert.equal(answer.includes(secrets['X-Api-Key'].slice(0, 6)), false);
  });

  it('takes origins, not other addresses, in secretOrigins', () => {
    const cardUrl = 'https://agents.example.com/.well-known/agent-card.json';
    for (const secretOrigins of [
      ['https://api.example.com'],
      ['http://127.0.0.1:8080', 'https://agents.example.com:8443'],
    ]) {
      assert.ok(Value.Check(a2aPlugin.configSchema, { cardUrl, secretOrigins }), JSON.stringify(secretOrigins));
    }
    for (const origin of ['api.example.com', 'https://api.example.com/rpc', 'ftp://api.example.com', 'https://a@b.c']) {
      assert.equal(Value.Check(a2aPlugin.configSchema, { cardUrl, secretOrigins: [origin] }), false, origin);
    }
  });
});
