import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { textOf, turnsOf, type FakeProviderServer, type RecordedRequest } from '../helpers/fake-provider-server.js';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Long-term memory's schedule, seen from outside: how many model requests a
 * conversation costs (the fake provider records them), and that batching
 * loses nothing — what the memory API shows and what reaches the prompt.
 * Background work is waited for with the worker's whenIdle (its idle timers
 * do not count: an idle flush is never what these tests wait for).
 */
const systemOf = (request: RecordedRequest) =>
  textOf(request.body.messages.find((message) => message.role === 'system') ?? { role: 'system', content: '' });
const isFactsTask = (request: RecordedRequest) => systemOf(request).startsWith('agentd-memory-task: facts');
const lastUser = (request: RecordedRequest) =>
  textOf(request.body.messages.filter((message) => message.role === 'user').at(-1) ?? { content: '' });

/** Answers fact tasks from "my name is X" / "I live in X" in the numbered messages. */
function factsProvider(fake: FakeProviderServer) {
  fake.setMemoryBehaviour((request) => {
    if (!isFactsTask(request)) return { reply: 'They talk about the weather.' };
    const facts = [];
    for (const line of lastUser(request).split('\n')) {
      const message = Number(/^\[(\d+)\]/.exec(line)?.[1]);
      const name = /my name is (\w+)/i.exec(line);
      if (name) facts.push({ message, subject: 'name', statement: `name is ${name[1]}` });
      const place = /I live in (\w+)/i.exec(line);
      if (place) facts.push({ message, subject: 'location', statement: `lives in ${place[1]}` });
    }
    return { reply: JSON.stringify({ facts }) };
  });
}

/** 16 user messages: two that state facts, small talk, and questions. */
const conversation = [
  'Hi!',
  'Hello, my name is Zephyrine.',
  'What is the forecast for the harbour tomorrow?',
  'thanks',
  'And the wind?',
  'Should I take the ferry or the bridge?',
  'ok 👍',
  'How long does the ferry take?',
  'I live in Lisbon, by the river.',
  'Is there a bakery near the pier?',
  'Thank you so much',
  'What time does it open?',
  'Good morning!',
  'Can I bring my bicycle on the ferry?',
  'cool',
  'What should I see first?',
];

for (const backend of backends) {
  describe(`memory schedule on ${backend.label}`, { skip: backend.skip }, () => {
    let fake: FakeProviderServer;
    let t: TestApp;
    before(async () => {
      fake = await startFakeOpenAiServer();
      t = await createTestApp({
        backend: backend.name,
        env: {
          AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
          AGENTD_OPENAI_COMPATIBLE_API_KEY: 'server-key-123456',
          AGENTD_DEFAULT_MODEL: 'openai-compatible/test-model',
          AGENTD_PROVIDER_RETRY_DELAY_MS: '0',
        },
      });
    });
    after(async () => {
      await t?.close();
      await fake?.close();
    });
    beforeEach(() => {
      fake.reset();
      factsProvider(fake);
    });

    async function send(agentId: string, text: string, userId: string) {
      const response = await t.inject({
        method: 'POST',
        url: `/v1/agents/${agentId}/messages`,
        payload: { text, userId },
      });
      assert.equal(response.statusCode, 200, response.body);
    }
    async function factsOf(agentId: string, userId: string): Promise<string[]> {
      const response = await t.inject({ method: 'GET', url: `/v1/agents/${agentId}/memory?userId=${userId}` });
      assert.equal(response.statusCode, 200, response.body);
      return response.json().facts.map((fact: { statement: string }) => fact.statement);
    }
    /** The model requests a conversation cost: its replies and the memory work it started. */
    async function talk(memory: Record<string, unknown>, userId: string) {
      fake.reset();
      factsProvider(fake);
      const agent = await t.newAgent({ name: 'Scheduled', memory });
      for (const text of conversation) {
        await send(agent.id, text, userId);
        // Each exchange's memory work done before the next: what a pass finds does not depend on timing.
        await t.deps.services.memory.whenIdle();
      }
      return {
        replies: fake.requests.length,
        memoryRequests: fake.memoryRequests.length,
        facts: await factsOf(agent.id, userId),
      };
    }

    it('makes fewer model requests with the default schedule than after every exchange, remembering the same', async () => {
      const everyTurn = await talk({ schedule: { everyUserTurns: 1 } }, 'every-turn');
      const byDefault = await talk({}, 'by-default');
      assert.equal(everyTurn.replies, 16);
      assert.equal(byDefault.replies, 16);
      // One request per user message that says something (10 of 16: greetings and thanks cost none) …
      assert.equal(everyTurn.memoryRequests, 10);
      // … against one per batch of 8 such messages.
      assert.equal(byDefault.memoryRequests, 1);
      assert.ok((byDefault.replies + byDefault.memoryRequests) / 16 <= 1.25, 'at most 1.25 requests per message');
      assert.deepEqual(byDefault.facts.sort(), ['lives in Lisbon', 'name is Zephyrine']);
      assert.deepEqual(everyTurn.facts.sort(), byDefault.facts);
    });

    it('leaves a batch short of its count waiting, and reads it before a turn of it leaves the window', async () => {
      const agent = await t.newAgent({
        name: 'Windowed',
        memory: { summary: false, recall: false, budgets: { historyTokens: 300 }, schedule: { everyUserTurns: 50 } },
      });
      const { memory } = t.deps.services;
      const waitingBefore = memory.waiting;
      await send(agent.id, 'Hello there, my name is Zephyrine.', 'win');
      await memory.whenIdle();
      assert.deepEqual(await factsOf(agent.id, 'win'), [], 'one turn of 50: it waits');
      assert.equal(memory.waiting, waitingBefore + 1, 'for the conversation to be idle');
      let shown = true;
      let factsBefore: string[] = [];
      for (let index = 1; shown; index += 1) {
        assert.ok(index < 20, 'the first turn leaves the window');
        await send(agent.id, `Forecast ${index}: cloudy skies over the hills, light wind from the west.`, 'win');
        shown = turnsOf(fake.requests.at(-1) as RecordedRequest).some((turn) => turn.includes('Zephyrine'));
        // The prompt that no longer shows the first turn was built after its fact was stored.
        if (!shown) assert.deepEqual(factsBefore, ['name is Zephyrine'], 'read before it left the window');
        await t.deps.services.memory.whenIdle();
        factsBefore = await factsOf(agent.id, 'win');
      }
      assert.ok(fake.memoryRequests.length <= 2, `${fake.memoryRequests.length} fact requests for the whole window`);
      await send(agent.id, 'What is my name?', 'win');
      assert.match(systemOf(fake.requests.at(-1) as RecordedRequest), /- name is Zephyrine/);
    });

    it('costs no model request for small talk, and sends a batch without it', async () => {
      const agent = await t.newAgent({ name: 'Polite', memory: { schedule: { everyUserTurns: 1 } } });
      const waitingBefore = t.deps.services.memory.waiting;
      for (const text of ['Hi!', 'thanks', 'ok 👍', 'Good morning!']) await send(agent.id, text, 'polite');
      await t.deps.services.memory.whenIdle();
      assert.equal(fake.memoryRequests.length, 0);
      assert.equal(t.deps.services.memory.waiting, waitingBefore, 'nothing waits for small talk');
      await send(agent.id, 'By the way, my name is Bo.', 'polite');
      await t.deps.services.memory.whenIdle();
      assert.equal(fake.memoryRequests.length, 1);
      assert.equal(lastUser(fake.memoryRequests[0] as RecordedRequest), '[1] By the way, my name is Bo.');
      assert.deepEqual(await factsOf(agent.id, 'polite'), ['name is Bo']);
    });

    it('validates, shows and resets the schedule as part of the memory settings', async () => {
      const bad = await t.inject({
        method: 'POST',
        url: '/v1/agents',
        payload: { name: 'x', memory: { schedule: { everyUserTurns: 0, idleSeconds: 5, often: true } } },
      });
      assert.equal(bad.statusCode, 400);
      const paths = bad.json().errors.map((error: { path: string }) => error.path);
      for (const path of [
        '/body/memory/schedule/everyUserTurns',
        '/body/memory/schedule/idleSeconds',
        '/body/memory/schedule/often',
      ]) {
        assert.ok(paths.includes(path), `${path} in ${paths}`);
      }
      const agent = await t.newAgent({ name: 'Tuned', memory: { schedule: { everyUserTurns: 3 } } });
      assert.deepEqual(agent.memory.schedule, { everyUserTurns: 3, idleSeconds: 600 });
      const patched = await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${agent.id}`,
        payload: { memory: { schedule: { idleSeconds: 60 } } },
      });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.deepEqual(patched.json().memory.schedule, { everyUserTurns: 3, idleSeconds: 60 });
      const reset = await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${agent.id}`,
        payload: { memory: { schedule: { everyUserTurns: null } } },
      });
      assert.deepEqual(reset.json().memory.schedule, { everyUserTurns: 8, idleSeconds: 60 });
      const whole = await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${agent.id}`,
        payload: { memory: { schedule: null } },
      });
      assert.deepEqual(whole.json().memory.schedule, { everyUserTurns: 8, idleSeconds: 600 });
    });
  });
}
