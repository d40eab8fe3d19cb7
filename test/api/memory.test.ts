import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { textOf, turnsOf, type FakeProviderServer, type RecordedRequest } from '../helpers/fake-provider-server.js';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/wait.js';

/**
 * Long-term memory, seen from outside: what reaches the model's prompt (the
 * fake provider records it), what the memory API shows, and what forgetting
 * leaves. Background work is waited for by polling the memory API.
 */
const systemOf = (request: RecordedRequest) =>
  textOf(request.body.messages.find((message) => message.role === 'system') ?? { role: 'system', content: '' });
const isTask = (request: RecordedRequest) => systemOf(request).startsWith('agentd-memory-task');
const isFactsTask = (request: RecordedRequest) => systemOf(request).startsWith('agentd-memory-task: facts');
const isSummaryTask = (request: RecordedRequest) => systemOf(request).startsWith('agentd-memory-task: summary');
const lastUser = (request: RecordedRequest) =>
  textOf(request.body.messages.filter((message) => message.role === 'user').at(-1) ?? { content: '' });
/** The notes agentd put before the user's text in the last message (what changes per message: recall, knowledge). */
const notesOf = (request: RecordedRequest) =>
  /^<message-notes>\n([^]*)\n<\/message-notes>\n\n/.exec(lastUser(request))?.[1] ?? '';

/** A provider that extracts "my name is X" / "I live in X" as JSON facts and summarizes by keeping names. */
function memoryAwareProvider(fake: FakeProviderServer, options: { failSummaries?: () => boolean } = {}) {
  fake.setMemoryBehaviour((request) => {
    if (isFactsTask(request)) {
      // The user's messages come numbered, one a line: "[1] …".
      const facts = [];
      for (const line of lastUser(request).split('\n')) {
        const message = Number(/^\[(\d+)\]/.exec(line)?.[1]);
        const name = /my name is (\w+)/i.exec(line);
        if (name) facts.push({ message, subject: 'name', statement: `name is ${name[1]}` });
        const place = /I live in (\w+)/i.exec(line);
        if (place) facts.push({ message, subject: 'location', statement: `lives in ${place[1]}` });
      }
      return { reply: JSON.stringify({ facts }) };
    }
    if (isSummaryTask(request)) {
      if (options.failSummaries?.()) return { status: 500, errorMessage: 'summarizer down' };
      const names = [...lastUser(request).matchAll(/my name is (\w+)/gi)].map((match) => match[1]);
      const kept = /The user is called (\w+)/.exec(lastUser(request))?.[1];
      const name = names.at(-1) ?? kept;
      return {
        reply: name ? `The user is called ${name}. They talk about the weather.` : 'They talk about the weather.',
      };
    }
    return {};
  });
}

/** Messages that share no word with "What is my name?" once common words are left out. */
const filler = (index: number) => `Forecast ${index}: cloudy skies over the hills, light wind from the west.`;

for (const backend of backends) {
  describe(`long-term memory on ${backend.label}`, { skip: backend.skip }, () => {
    let fake: FakeProviderServer;
    let t: TestApp;
    before(async () => {
      fake = await startFakeOpenAiServer();
      t = await createTestApp({
        backend: backend.name,
        captureLogs: true,
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
      memoryAwareProvider(fake);
    });

    async function send(agentId: string, payload: Record<string, unknown>) {
      const response = await t.inject({ method: 'POST', url: `/v1/agents/${agentId}/messages`, payload });
      assert.equal(response.statusCode, 200, response.body);
      return response.json();
    }
    async function memoryOf(agentId: string, query: string) {
      const response = await t.inject({ method: 'GET', url: `/v1/agents/${agentId}/memory?${query}` });
      assert.equal(response.statusCode, 200, response.body);
      return response.json();
    }
    /** The last prompt of a reply (not of memory work) sent for the agent named `name`. */
    const lastPromptOf = (name: string) =>
      fake.requests
        .filter((request) => !isTask(request) && systemOf(request).startsWith(`You are ${name}.`))
        .at(-1) as RecordedRequest;

    /**
     * 100 exchanges (200 turns): the name in the first, then filler, then the
     * question, once the memory work the exchanges started is done (the
     * schedule's batches and window, never its idle time, bring the name in).
     */
    async function longConversation(agentId: string, userId: string) {
      await send(agentId, { text: 'Hello there, my name is Zephyrine.', userId });
      for (let index = 1; index < 99; index += 1) await send(agentId, { text: filler(index), userId });
      await t.deps.services.memory.whenIdle();
      await send(agentId, { text: 'What is my name?', userId });
    }

    const smallWindow = { historyTokens: 300 };

    it('carries a fact from the first of 200 turns to the last prompt: through facts, through recall, not without memory', async () => {
      const [facts, recall, none] = await Promise.all([
        t.newAgent({ name: 'Facts', memory: { summary: false, facts: true, recall: false, budgets: smallWindow } }),
        t.newAgent({ name: 'Recall', memory: { summary: false, facts: false, recall: true, budgets: smallWindow } }),
        t.newAgent({
          name: 'Forgetful',
          memory: { summary: false, facts: false, recall: false, budgets: smallWindow },
        }),
      ]);
      await Promise.all([
        longConversation(facts.id, 'zephyrine'),
        longConversation(recall.id, 'zephyrine'),
        longConversation(none.id, 'zephyrine'),
      ]);
      for (const name of ['Facts', 'Recall', 'Forgetful']) {
        const turns = turnsOf(lastPromptOf(name));
        assert.ok(turns.at(-1)?.endsWith('What is my name?'));
        const history = turns.slice(0, -1);
        assert.ok(!history.some((turn) => turn.includes('Zephyrine')), `${name}: the first turn is outside the window`);
        assert.ok(turns.length < 20, `${name}: the window is small (${turns.length} turns)`);
      }
      const factsSystem = systemOf(lastPromptOf('Facts'));
      assert.match(factsSystem, /What you remember about the person you are talking with[^]*- name is Zephyrine/);
      assert.ok(!notesOf(lastPromptOf('Facts')).includes('Earlier in this conversation'));
      // A recalled turn changes with the message: a note of the last message, never in the cached system prompt.
      assert.match(notesOf(lastPromptOf('Recall')), /Earlier in this conversation[^]*my name is Zephyrine/);
      const recallSystem = systemOf(lastPromptOf('Recall'));
      assert.ok(!recallSystem.includes('Zephyrine') && !recallSystem.includes('What you remember'));
      assert.ok(!systemOf(lastPromptOf('Forgetful')).includes('Zephyrine'), 'with memory off the name is gone');
    });

    it('bounds the history by default, and still carries a fact told 150 turns ago and recalls the turn that told it', async () => {
      // Default memory settings, and a model whose window (128k tokens) would hold the whole conversation.
      const agent = await t.newAgent({
        name: 'Default',
        model: { provider: 'openai-compatible', name: 'gpt-4o-mini' },
      });
      fake.setDefault({ reply: `Noted. ${'The forecast stays much the same over the hills today. '.repeat(3)}` });
      await send(agent.id, {
        text: 'Hello, my name is Zephyrine; the spare key is under the marmalade jar.',
        userId: 'zed',
      });
      for (let index = 1; index < 75; index += 1) {
        await send(agent.id, { text: `${filler(index)} ${'Cloud cover grows later on.'.repeat(2)}`, userId: 'zed' });
      }
      await t.deps.services.memory.whenIdle();
      await send(agent.id, { text: 'Where is the marmalade jar, and what is my name?', userId: 'zed' });
      const prompt = lastPromptOf('Default');
      const history = turnsOf(prompt).slice(0, -1);
      assert.ok(history.length < 120, `the history is bounded (${history.length} of 150 turns)`);
      assert.ok(!history.some((turn) => turn.includes('Zephyrine')), 'the first turn is outside the window');
      assert.match(systemOf(prompt), /What you remember about the person you are talking with[^]*- name is Zephyrine/);
      assert.match(notesOf(prompt), /Earlier in this conversation[^]*under the marmalade jar/);
    });

    it('recalls the turn sharing a rare word of the message before recent turns sharing its common ones, and carries the facts it names first', async () => {
      const agent = await t.newAgent({
        name: 'Rare',
        memory: {
          summary: false,
          facts: true,
          recall: true,
          budgets: { historyTokens: 100, recallTokens: 40, factsTokens: 40 },
        },
      });
      await send(agent.id, { text: 'The spare key is under the marmalade jar.', userId: 'ana' });
      for (let index = 0; index < 40; index += 1) {
        await send(agent.id, { text: `Forecast ${index}: wind and tide at the harbour.`, userId: 'ana' });
      }
      // Another user's conversation with the same words: recall never crosses into it.
      await send(agent.id, { text: 'Marmalade wind tide harbour, said Bo.', userId: 'bo' });
      // More facts than the budget holds (each about 8 tokens: 4 fit), the one the message names stored first.
      const { repositories } = t.deps.services;
      const stored = Date.now();
      for (let index = 0; index < 60; index += 1) {
        const at = new Date(stored + index * 1000).toISOString();
        await repositories.memory.upsertFact({
          id: `fact_rare${String(index).padStart(3, '0')}`,
          agent_id: agent.id,
          user_id: 'ana',
          subject: index === 0 ? 'preference:bicycle' : `preference:item${index}`,
          statement: index === 0 ? 'rides a green bicycle' : `likes item number ${index}`,
          source_message_id: null,
          created_at: at,
          updated_at: at,
        });
      }
      await send(agent.id, { text: 'Where is the key? Think of wind, tide, marmalade and my bicycle.', userId: 'ana' });
      const system = systemOf(lastPromptOf('Rare'));
      const notes = notesOf(lastPromptOf('Rare'));
      assert.match(notes, /Earlier in this conversation[^]*under the marmalade jar/);
      assert.ok(!notes.includes('said Bo') && !system.includes('said Bo'), "another user's turn is never recalled");
      assert.match(system, /What you remember about the person you are talking with[^]*- rides a green bicycle/);
      assert.ok(system.includes('likes item number 59'), 'the newest facts fill the rest of the budget');
      assert.ok(!system.includes('likes item number 1\n'), 'the oldest facts that name nothing are left out');
    });

    it('folds what leaves the window into a summary the prompt carries; a failing summarization never fails a reply', async () => {
      let summarizerDown = true;
      memoryAwareProvider(fake, { failSummaries: () => summarizerDown });
      const agent = await t.newAgent({
        name: 'Summarist',
        memory: { summary: true, facts: false, recall: false, budgets: smallWindow },
      });
      await send(agent.id, { text: 'Hello there, my name is Zephyrine.', userId: 'zed' });
      // Far more failed summarizations than the circuit breaker's threshold: replies go on regardless.
      for (let index = 1; index < 30; index += 1) await send(agent.id, { text: filler(index), userId: 'zed' });
      await eventually(
        async () => (fake.memoryRequests.filter(isSummaryTask).length >= 3 ? true : null),
        'summarizations to be tried',
      );
      assert.equal((await memoryOf(agent.id, 'userId=zed')).summary, null);
      const failures = t.logs!.entries().filter((entry) => entry.msg.startsWith('memory update failed'));
      assert.ok(failures.length > 0, 'the failure is logged');
      assert.ok(!t.logs!.text().includes('cloudy skies'), 'without the conversation in the log');

      summarizerDown = false;
      await send(agent.id, { text: filler(30), userId: 'zed' });
      const memory = await eventually(async () => {
        const current = await memoryOf(agent.id, 'userId=zed');
        return current.summary?.includes('Zephyrine') ? current : null;
      }, 'the summary to be written once the model answers again');
      assert.match(memory.summarizedThrough, /^msg_/);
      await send(agent.id, { text: 'What is my name?', userId: 'zed' });
      const system = systemOf(lastPromptOf('Summarist'));
      assert.match(system, /Summary of the earlier conversation[^]*The user is called Zephyrine/);
      const events = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/events` })).json();
      const updated = events.data.find((event: any) => event.type === 'memory.updated');
      assert.equal(updated?.data.summary, true);
      assert.equal(updated?.actor, 'service');
    });

    it('replaces a contradicted fact instead of adding one, and the next prompt carries an edited fact', async () => {
      // Facts after every exchange (the schedule's batches are tested in memory-schedule.test.ts).
      const agent = await t.newAgent({ name: 'Keeper', memory: { schedule: { everyUserTurns: 1 } } });
      await send(agent.id, { text: 'I live in Lisbon.', userId: 'ana' });
      await eventually(
        async () => ((await memoryOf(agent.id, 'userId=ana')).facts.length === 1 ? true : null),
        'a fact',
      );
      await send(agent.id, { text: 'We moved: I live in Porto.', userId: 'ana' });
      const memory = await eventually(async () => {
        const current = await memoryOf(agent.id, 'userId=ana');
        return current.facts[0]?.statement === 'lives in Porto' ? current : null;
      }, 'the fact to be replaced');
      assert.equal(memory.facts.length, 1);
      const history = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/messages?userId=ana` })).json();
      const porto = history.data.find((turn: any) => turn.text === 'We moved: I live in Porto.');
      assert.equal(memory.facts[0].sourceMessageId, porto.id);
      assert.equal(memory.facts[0].subject, 'location');

      const patched = await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${agent.id}/memory?userId=ana`,
        payload: { facts: [{ id: memory.facts[0].id, statement: 'lives in Faro' }] },
      });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.equal(patched.json().facts[0].statement, 'lives in Faro');
      assert.equal(patched.json().facts[0].sourceMessageId, null);
      await send(agent.id, { text: 'Where should I go for dinner?', userId: 'ana' });
      const system = systemOf(lastPromptOf('Keeper'));
      assert.ok(system.includes('- lives in Faro'), system);
      assert.ok(!system.includes('Porto'.concat(' ')) && !system.includes('lives in Porto'));
    });

    it("keeps one user's facts out of another's private conversation, and shows a room the facts of who is in it", async () => {
      const agent = await t.newAgent({ name: 'Host', memory: { schedule: { everyUserTurns: 1 } } });
      await send(agent.id, { text: 'Hi, my name is Alice.', userId: 'alice' });
      await eventually(async () => ((await memoryOf(agent.id, 'userId=alice')).facts.length ? true : null), 'a fact');
      await send(agent.id, { text: 'What is my name?', userId: 'bob' });
      assert.ok(!systemOf(lastPromptOf('Host')).includes('Alice'));
      assert.deepEqual((await memoryOf(agent.id, 'userId=bob')).facts, []);

      await send(agent.id, { text: 'Good evening, my name is Carol.', userId: 'carol', roomId: 'lobby' });
      await eventually(async () => ((await memoryOf(agent.id, 'userId=carol')).facts.length ? true : null), 'a fact');
      await send(agent.id, { text: 'Who is here?', userId: 'dave', roomId: 'lobby' });
      assert.match(systemOf(lastPromptOf('Host')), /- \[carol\] name is Carol/);
      await send(agent.id, { text: 'Who am I?', userId: 'dave' });
      assert.ok(!systemOf(lastPromptOf('Host')).includes('Carol'), "a room's facts stay out of private prompts");

      const stranger = await t.newAccount();
      for (const request of [
        { method: 'GET' as const, url: `/v1/agents/${agent.id}/memory?userId=alice` },
        { method: 'PATCH' as const, url: `/v1/agents/${agent.id}/memory?userId=alice`, payload: { summary: null } },
      ]) {
        const response = await t.inject({ ...request, as: stranger });
        assert.equal(response.statusCode, 404);
        assert.equal(response.json().code, 'not_found');
      }
    });

    it('forgets the summary, the facts (with facts=true) and what recall could find when a conversation is forgotten', async () => {
      const agent = await t.newAgent({ name: 'Eraser', memory: { budgets: { historyTokens: 120 } } });
      await send(agent.id, { text: 'Hello there, my name is Zephyrine.', userId: 'zed' });
      for (let index = 1; index < 8; index += 1) await send(agent.id, { text: filler(index), userId: 'zed' });
      await eventually(async () => {
        const memory = await memoryOf(agent.id, 'userId=zed');
        return memory.summary !== null && memory.facts.length > 0 ? true : null;
      }, 'a summary and a fact');

      const forgotten = await t.inject({
        method: 'DELETE',
        url: `/v1/agents/${agent.id}/conversations?userId=zed&facts=true`,
      });
      assert.equal(forgotten.statusCode, 200, forgotten.body);
      assert.equal(forgotten.json().deleted, 16);
      const memory = await memoryOf(agent.id, 'userId=zed');
      assert.equal(memory.summary, null);
      assert.deepEqual(memory.facts, []);

      await send(agent.id, { text: 'Zephyrine is my name, remember the forecast?', userId: 'zed' });
      const system = systemOf(lastPromptOf('Eraser'));
      assert.ok(!system.includes('Earlier in this conversation'), system);
      assert.ok(!system.includes('Summary of the earlier conversation'), system);
      assert.ok(!system.includes('What you remember'), system);
    });

    it('validates the memory API and the memory settings, changing nothing on a bad request', async () => {
      const agent = await t.newAgent({ name: 'Strict' });
      const noSelector = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/memory` });
      assert.equal(noSelector.statusCode, 400);
      assert.equal(noSelector.json().errors[0].path, '/query');

      const set = await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${agent.id}/memory?userId=ana`,
        payload: { summary: 'Ana likes tea.', facts: [{ subject: 'name', statement: 'name is Ana' }] },
      });
      assert.equal(set.statusCode, 200, set.body);
      assert.equal(set.json().summary, 'Ana likes tea.');
      const fact = set.json().facts[0];

      const bad = await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${agent.id}/memory?userId=ana`,
        payload: {
          summary: 'changed',
          facts: [
            { id: fact.id, delete: true },
            { id: 'fct_01JAAAAAAAAAAAAAAAAAAAAAAA', statement: 'x' },
          ],
        },
      });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.headers['content-type'], 'application/problem+json; charset=utf-8');
      assert.deepEqual(bad.json().errors, [
        { path: '/body/facts/1/id', code: 'invalid', message: 'is not a fact of this user' },
      ]);
      const unchanged = await memoryOf(agent.id, 'userId=ana');
      assert.equal(unchanged.summary, 'Ana likes tea.');
      assert.equal(unchanged.facts.length, 1);

      for (const [url, payload, path] of [
        [`/v1/agents/${agent.id}/memory?roomId=r1`, { facts: [{ subject: 'name', statement: 'x' }] }, '/query/userId'],
        [
          `/v1/agents/${agent.id}/memory?userId=ana`,
          { facts: [{ subject: 'Bad Subject!', statement: 'x' }] },
          '/body/facts/0',
        ],
        [`/v1/agents/${agent.id}/memory?userId=ana`, { extra: true }, '/body/extra'],
      ] as const) {
        const response = await t.inject({ method: 'PATCH', url, payload });
        assert.equal(response.statusCode, 400, response.body);
        assert.ok(
          response.json().errors.some((error: any) => error.path.startsWith(path)),
          JSON.stringify(response.json().errors),
        );
      }

      const badSettings = await t.inject({
        method: 'POST',
        url: '/v1/agents',
        payload: { name: 'x', memory: { summary: 'yes', budgets: { recallTokens: -1 } } },
      });
      assert.equal(badSettings.statusCode, 400);
      const paths = badSettings.json().errors.map((error: any) => error.path);
      assert.ok(paths.includes('/body/memory/summary') && paths.includes('/body/memory/budgets/recallTokens'), paths);

      const patched = await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${agent.id}`,
        payload: { memory: { recall: false, budgets: { factsTokens: 50 } } },
      });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.deepEqual(patched.json().memory, {
        summary: true,
        facts: true,
        recall: false,
        budgets: { historyTokens: null, summaryTokens: 400, factsTokens: 50, recallTokens: 400 },
        schedule: { everyUserTurns: 8, idleSeconds: 600 },
      });
      const reset = await t.inject({ method: 'PATCH', url: `/v1/agents/${agent.id}`, payload: { memory: null } });
      assert.equal(reset.json().memory.recall, true);
      assert.equal(reset.json().memory.budgets.factsTokens, 300);
    });
  });
}

describe('long-term memory with the builtin model', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t?.close());

  it('extracts facts by pattern, folds an extractive summary, and says what it remembers', async () => {
    const agent = await t.newAgent({ name: 'Offline', memory: { budgets: { historyTokens: 150 } } });
    const send = async (text: string) => {
      const response = await t.inject({
        method: 'POST',
        url: `/v1/agents/${agent.id}/messages`,
        payload: { text, userId: 'kim' },
      });
      assert.equal(response.statusCode, 200, response.body);
      return response.json().text as string;
    };
    await send('Hi! My name is Kim Lee and I prefer metric units.');
    for (let index = 0; index < 6; index += 1) await send(`Tell me about tide number ${index}.`);
    const memory = await eventually(async () => {
      const response = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/memory?userId=kim` });
      const body = response.json();
      return body.summary !== null && body.facts.length === 2 ? body : null;
    }, 'facts and a summary');
    assert.deepEqual(
      memory.facts.map((fact: any) => [fact.subject, fact.statement]),
      [
        ['name', 'name is Kim Lee'],
        ['preference:units', 'prefers metric units'],
      ],
    );
    assert.match(memory.summary, /user: Hi! My name is Kim Lee/);
    const reply = await send('Do you know me?');
    assert.match(reply, /I remember about you: name is Kim Lee; prefers metric units\./);
  });

  it("counts memory updates in the agent's metrics, in the background and through the memory API", async () => {
    const agent = await t.newAgent({ name: 'Counted' });
    const memoryUpdates = async () => {
      await t.deps.services.agentMetrics.flush();
      const response = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/metrics?interval=day` });
      assert.equal(response.statusCode, 200, response.body);
      return response.json().totals.memoryUpdates as number;
    };
    assert.equal(await memoryUpdates(), 0);
    const sent = await t.inject({
      method: 'POST',
      url: `/v1/agents/${agent.id}/messages`,
      payload: { text: 'My name is Ana.', userId: 'ana' },
    });
    assert.equal(sent.statusCode, 200, sent.body);
    await eventually(async () => {
      const response = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/memory?userId=ana` });
      return response.json().facts.length === 1 ? true : null;
    }, 'the fact extracted');
    await t.deps.services.memory.whenIdle();
    const background = await memoryUpdates();
    assert.ok(background >= 1, `background updates counted: ${background}`);
    const edited = await t.inject({
      method: 'PATCH',
      url: `/v1/agents/${agent.id}/memory?userId=ana`,
      payload: { facts: [{ subject: 'location', statement: 'lives in Faro' }] },
    });
    assert.equal(edited.statusCode, 200, edited.body);
    assert.equal(await memoryUpdates(), background + 1);
  });
});
