import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { SendMessageRequest, TaskState, type StreamResponse, type Task } from '@a2a-js/sdk';
import {
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  type Client as A2AClientType,
} from '@a2a-js/sdk/client';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeProviderServer } from '../helpers/fake-provider-server.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/wait.js';

/**
 * agentd's agents as A2A agents, as A2A clients meet them: the official
 * `@a2a-js/sdk` client against a listening agentd.
 */

/** fetch with the account's key: how a client authenticates to the card's Bearer scheme. */
function fetchWithKey(key: string): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${key}`);
    return fetch(input, { ...init, headers });
  };
}

function clientFactory(key: string): ClientFactory {
  const fetchImpl = fetchWithKey(key);
  return new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
  });
}

function message(text: string, contextId = '') {
  return SendMessageRequest.fromJSON({
    message: { messageId: randomUUID(), contextId, role: 'ROLE_USER', parts: [{ text }] },
  });
}

function textOfTask(task: Task): string {
  return task.artifacts
    .flatMap((artifact) => artifact.parts)
    .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
    .join('');
}

describe('A2A agents', () => {
  let fake: FakeProviderServer;
  let t: TestApp;
  let origin: string;

  before(async () => {
    fake = await startFakeOpenAiServer();
    t = await createTestApp({ env: { AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await t?.close();
    await fake?.close();
  });
  beforeEach(() => fake.reset());

  const cardPath = (agentId: string) => `/v1/a2a/${agentId}/.well-known/agent-card.json`;
  const providerAgent = (fields: Record<string, unknown> = {}) =>
    t.newAgent({ model: { provider: 'openai-compatible', name: 'test-model' }, ...fields });
  const connect = (agentId: string, key = t.owner.key): Promise<A2AClientType> =>
    clientFactory(key).createFromUrl(origin, cardPath(agentId));

  it('serves a card the client reads: name, description, skills, streaming, Bearer, the JSON-RPC interface', async () => {
    const agent = await providerAgent({
      name: 'Librarian',
      bio: 'Finds books.',
      expertise: ['cataloguing'],
      plugins: [{ name: 'clock' }],
    });
    const card = await new DefaultAgentCardResolver({ fetchImpl: fetchWithKey(t.owner.key) }).resolve(
      origin,
      cardPath(agent.id),
    );
    assert.equal(card.name, 'Librarian');
    assert.equal(card.description, 'Finds books.');
    assert.equal(card.capabilities?.streaming, true);
    const scheme = card.securitySchemes.bearer?.scheme;
    assert.equal(scheme?.$case, 'httpAuthSecurityScheme');
    assert.equal(scheme?.$case === 'httpAuthSecurityScheme' ? scheme.value.scheme : '', 'Bearer');
    const skills = card.skills.map((skill) => skill.id);
    assert.ok(skills.includes('plugin:clock'), skills.join(', '));
    assert.ok(skills.includes('expertise:1'));
    const endpoint = card.supportedInterfaces.find((each) => each.protocolVersion === '1.0');
    assert.equal(endpoint?.url, `${origin}/v1/a2a/${agent.id}`);
    assert.equal(endpoint?.protocolBinding, 'JSONRPC');

    const directory = (await t.inject({ method: 'GET', url: '/v1/a2a' })).json();
    const entry = directory.data.find((each: { agentId: string }) => each.agentId === agent.id);
    assert.equal(entry.card.name, 'Librarian');
  });

  it('answers a message with a completed task whose id is the run and whose artifact is the reply', async () => {
    const agent = await providerAgent();
    fake.enqueue({ reply: 'Forty-two.' });
    const client = await connect(agent.id);
    const result = await client.sendMessage(message('What is the answer?'));
    const task = result as Task;
    assert.match(task.id, /^run_/);
    assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
    assert.equal(textOfTask(task), 'Forty-two.');
    assert.ok(task.contextId !== '');
    const run = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/runs/${task.id}` })).json();
    assert.equal(run.trigger, 'a2a');
    assert.equal(run.roomId, task.contextId);

    const got = await client.getTask({ tenant: '', id: task.id });
    assert.equal(got.status?.state, TaskState.TASK_STATE_COMPLETED);
    assert.equal(textOfTask(got), 'Forty-two.');
  });

  it('streams a message as the task, artifact updates that join to the reply, and a completed status', async () => {
    const agent = await providerAgent();
    fake.enqueue({ reply: 'one two three' });
    const client = await connect(agent.id);
    const events: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(message('Count'))) events.push(event);
    assert.equal(events[0]?.payload?.$case, 'task');
    const pieces = events.flatMap((event) =>
      event.payload?.$case === 'artifactUpdate'
        ? event.payload.value.artifact!.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
        : [],
    );
    assert.ok(pieces.length >= 2, `artifact updates arrived (${pieces.length})`);
    assert.equal(pieces.join(''), 'one two three');
    const last = events.at(-1)!;
    assert.equal(last.payload?.$case, 'statusUpdate');
    assert.equal(
      last.payload?.$case === 'statusUpdate' ? last.payload.value.status?.state : undefined,
      TaskState.TASK_STATE_COMPLETED,
    );
  });

  it('carries memory across messages of one contextId', async () => {
    const agent = await providerAgent();
    const client = await connect(agent.id);
    fake.enqueue({ reply: 'Noted, your name is Ada.' }, { reply: 'You are Ada.' });
    const first = (await client.sendMessage(message('My name is Ada.'))) as Task;
    await client.sendMessage(message('What is my name?', first.contextId));
    const prompt = JSON.stringify(fake.requests[1]!.body.messages);
    assert.ok(prompt.includes('My name is Ada.'), 'the second call saw the first in its history');
    assert.ok(prompt.includes('Noted, your name is Ada.'));

    fake.enqueue({ reply: 'Who are you?' });
    await client.sendMessage(message('What is my name?'));
    assert.ok(!JSON.stringify(fake.requests[2]!.body.messages).includes('Ada'), 'a new context starts afresh');
  });

  it('cancels a task that is running, stopping the model call', async () => {
    const agent = await providerAgent();
    fake.enqueue({ reply: 'a b c d e f g h i j k l m n o p q r s t', tokenDelayMs: 200 });
    const client = await connect(agent.id);
    const stream = client.sendMessageStream(message('Talk slowly'));
    const opening = await stream.next();
    assert.equal(opening.value?.payload?.$case, 'task');
    const taskId = opening.value!.payload!.$case === 'task' ? opening.value!.payload!.value.id : '';
    await fake.waitForRequests(1);
    const cancelled = await client.cancelTask({ tenant: '', id: taskId, metadata: undefined });
    assert.equal(cancelled.status?.state, TaskState.TASK_STATE_CANCELED);
    await fake.waitForAbort(0);
    const rest: StreamResponse[] = [];
    for await (const event of stream) rest.push(event);
    const last = rest.at(-1);
    assert.equal(
      last?.payload?.$case === 'statusUpdate' ? last.payload.value.status?.state : undefined,
      TaskState.TASK_STATE_CANCELED,
    );
    await assert.rejects(client.cancelTask({ tenant: '', id: taskId, metadata: undefined }), /cancel/i);
    await assert.rejects(client.getTask({ tenant: '', id: 'run_01JAAAAAAAAAAAAAAAAAAAAAAA' }), /not found/i);
  });

  it('speaks A2A 0.3 JSON-RPC to clients that send no A2A-Version', async () => {
    const agent = await providerAgent();
    fake.enqueue({ reply: 'Hello, old friend.' });
    const response = await fetch(`${origin}/v1/a2a/${agent.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.owner.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'message/send',
        params: { message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'Hi' }] } },
      }),
    });
    assert.equal(response.status, 200);
    const body = (await response.json()) as any;
    assert.equal(body.id, 7);
    assert.equal(body.result.kind, 'task');
    assert.equal(body.result.status.state, 'completed');
    assert.equal(body.result.artifacts[0].parts[0].text, 'Hello, old friend.');
  });

  it('the A2A endpoint does not tell whether an agent exists: a key lacking a method’s scope gets one answer', async () => {
    const agent = await providerAgent();
    const stranger = await t.newAccount();
    const elsewhere = (
      await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'Theirs' }, as: stranger })
    ).json().id as string;
    const missing = 'agt_01JAAAAAAAAAAAAAAAAAAAAAAA';
    const keysOnly = await t.newKey(t.owner.accountId, ['keys:manage']);
    const sendOnly = await t.newKey(t.owner.accountId, ['messages:send']);
    const readOnly = await t.newKey(t.owner.accountId, ['agents:read']);
    const call = async (key: { headers: Record<string, string> }, agentId: string, body: unknown, version?: string) => {
      const response = await t.inject({
        method: 'POST',
        url: `/v1/a2a/${agentId}`,
        headers: { ...key.headers, ...(version ? { 'a2a-version': version } : {}) },
        payload: body as object,
      });
      return { status: response.statusCode, body: response.json() };
    };
    const send = {
      jsonrpc: '2.0',
      id: 7,
      method: 'SendMessage',
      params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
    };
    const cases: Array<[string, { headers: Record<string, string> }, unknown, string | undefined]> = [
      ['SendMessage, keys:manage only', keysOnly, send, '1.0'],
      ['SendMessage, agents:read only', readOnly, send, '1.0'],
      [
        'tasks/get, keys:manage only',
        keysOnly,
        { jsonrpc: '2.0', id: 8, method: 'tasks/get', params: { id: 'run_x' } },
        undefined,
      ],
      [
        'tasks/get, messages:send only',
        sendOnly,
        { jsonrpc: '2.0', id: 8, method: 'tasks/get', params: { id: 'run_x' } },
        undefined,
      ],
      [
        'an unknown method, keys:manage only',
        keysOnly,
        { jsonrpc: '2.0', id: 9, method: 'Nonsense', params: {} },
        '1.0',
      ],
      ['no JSON-RPC at all, keys:manage only', keysOnly, { hello: 'there' }, '1.0'],
    ];
    for (const [what, key, body, version] of cases) {
      const mine = await call(key, agent.id, body, version);
      assert.deepEqual(await call(key, missing, body, version), mine, `${what}: a missing agent`);
      assert.deepEqual(await call(key, elsewhere, body, version), mine, `${what}: another account's agent`);
      assert.match(JSON.stringify(mine.body), /insufficient_scope/, what);
    }
    assert.equal(fake.requests.length, 0, 'no model call was made');
  });

  it('refuses callers without a key and keys of another account', async () => {
    const agent = await providerAgent();
    const bare = await fetch(`${origin}${cardPath(agent.id)}`);
    assert.equal(bare.status, 401);
    const rpc = await fetch(`${origin}/v1/a2a/${agent.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 'run_x' } }),
    });
    assert.equal(rpc.status, 401);

    const stranger = await t.newAccount();
    await assert.rejects(connect(agent.id, stranger.key), /404/);
    const crossed = await fetch(`${origin}/v1/a2a/${agent.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stranger.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: {} }),
    });
    assert.equal(crossed.status, 404);
    const directory = (await t.inject({ method: 'GET', url: '/v1/a2a', as: stranger })).json();
    assert.deepEqual(directory.data, []);
    await eventually(async () => (fake.requests.length === 0 ? true : null), 'no model call was made');
  });
});
