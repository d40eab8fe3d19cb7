import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { bankPlugin } from '../helpers/bank-plugin.js';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeProviderServer } from '../helpers/fake-provider-server.js';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/wait.js';

/**
 * A run's steps (GET …/runs/{runId}/steps) and the prompt each model step
 * was sent (…/steps/{index}/prompt), checked against what the provider
 * received; and the account's runs (GET /v1/runs).
 */

const bank = bankPlugin();

interface Step {
  index: number;
  kind: string;
  at: string | null;
  durationMs: number | null;
  model?: {
    step: number;
    finishReason: string;
    text: string;
    usage: { inputTokens: number; outputTokens: number };
    firstTokenMs: number | null;
    retries: number;
    toolCalls: Array<{ name: string; input: unknown }>;
    sections: Array<{ name: string; tokens: number; items: number }>;
    promptTokens: number;
  };
  tool?: { name: string; output?: unknown; error?: string };
  approval?: { status: string; toolName: string; input: unknown; resumedRunId: string | null };
  resume?: { reason: string; fromRunId: string | null; calls: number };
}

for (const backend of backends) {
  describe(`a run's steps on ${backend.name}`, { skip: backend.skip }, () => {
    let fake: FakeProviderServer;
    let t: TestApp;
    before(async () => {
      fake = await startFakeOpenAiServer();
      t = await createTestApp({
        backend: backend.name,
        env: {
          AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
          AGENTD_DEFAULT_MODEL: 'openai-compatible/test-model',
          AGENTD_RUN_FLUSH_MS: '20',
        },
        extraPlugins: [bank],
      });
    });
    after(async () => {
      await t?.close();
      await fake?.close();
    });
    beforeEach(() => fake.reset());

    const agentWith = (approval?: Record<string, unknown>) =>
      t.newAgent({
        name: 'Teller',
        bio: ['Keeps the books.'],
        model: { provider: 'openai-compatible', name: 'test-model' },
        plugins: [{ name: 'bank', ...(approval !== undefined ? { approval } : {}) }],
      });
    const send = async (agentId: string, body: Record<string, unknown>) => {
      const response = await t.inject({ method: 'POST', url: `/v1/agents/${agentId}/messages`, payload: body });
      assert.equal(response.statusCode, 200, response.body);
      return response.json();
    };
    /** The run's steps once `ready` holds (the last model step is written with the next flush). */
    const stepsOf = (agentId: string, runId: string, ready: (steps: Step[]) => boolean) =>
      eventually(async () => {
        const response = await t.inject({ method: 'GET', url: `/v1/agents/${agentId}/runs/${runId}/steps` });
        assert.equal(response.statusCode, 200, response.body);
        const body = response.json();
        return ready(body.data) ? body : null;
      }, `the steps of ${runId}`);
    const promptOf = async (agentId: string, runId: string, index: number) => {
      const response = await t.inject({
        method: 'GET',
        url: `/v1/agents/${agentId}/runs/${runId}/steps/${index}/prompt`,
      });
      assert.equal(response.statusCode, 200, response.body);
      return response.json();
    };

    it('lists each model step and tool call in order, and gives the prompt each step was sent', async () => {
      const agent = await agentWith();
      await send(agent.id, { text: 'I am Ana.', userId: 'ana' });
      fake.enqueue({ toolCalls: [{ name: 'balance', input: {} }], usage: { inputTokens: 120, outputTokens: 9 } });
      fake.enqueue({ reply: 'You have 100.', usage: { inputTokens: 150, outputTokens: 5 } });
      const reply = await send(agent.id, { text: 'What is my balance?', userId: 'ana', context: { branch: 'north' } });
      const body = await stepsOf(agent.id, reply.runId, (steps) => steps.length === 3);
      assert.equal(body.runId, reply.runId);
      assert.equal(body.agentVersion, 1);
      assert.ok(body.contextTokens > 0);
      const steps = body.data as Step[];
      assert.deepEqual(
        steps.map((step) => [step.index, step.kind]),
        [
          [1, 'model'],
          [2, 'tool'],
          [3, 'model'],
        ],
      );
      const [first, tool, second] = steps as [Step, Step, Step];
      assert.equal(first.model!.step, 1);
      assert.equal(first.model!.finishReason, 'tool-calls');
      assert.deepEqual(
        first.model!.toolCalls.map((call) => [call.name, call.input]),
        [['balance', {}]],
      );
      assert.equal(first.model!.usage.inputTokens, 120);
      assert.equal(first.model!.retries, 0);
      assert.ok(first.model!.firstTokenMs !== null && first.model!.firstTokenMs <= first.durationMs!);
      assert.deepEqual(tool.tool!.output, { balance: 100 });
      assert.equal(tool.tool!.name, 'balance');
      assert.equal(second.model!.step, 2);
      assert.equal(second.model!.text, 'You have 100.');
      assert.equal(second.model!.finishReason, 'stop');
      for (const step of steps) assert.ok(step.at !== null && !Number.isNaN(Date.parse(step.at)));

      const sections = (step: Step) => Object.fromEntries(step.model!.sections.map((each) => [each.name, each]));
      const one = sections(first);
      assert.ok(one.system!.tokens > 0, 'the character');
      assert.equal(one.tools!.items, 2, 'both tools offered');
      assert.ok(one.tools!.tokens > 0);
      assert.equal(one.history!.items, 2, 'the first exchange');
      assert.ok(one.context!.tokens > 0);
      assert.ok(one.message!.tokens > 0);
      assert.equal(one['tool-rounds']!.tokens, 0);
      assert.ok(sections(second)['tool-rounds']!.tokens > 0, 'the second step was shown the first round');
      assert.equal(
        first.model!.promptTokens,
        first.model!.sections.reduce((sum, each) => sum + each.tokens, 0),
      );

      // The prompt as sent, step by step, is what the provider received.
      const [firstRequest, secondRequest] = fake.requests.slice(-2);
      const prompt1 = await promptOf(agent.id, reply.runId, 1);
      assert.deepEqual(prompt1.model, { provider: 'openai-compatible', name: 'test-model' });
      const sent1 = firstRequest!.body.messages;
      assert.equal(sent1[0]!.role, 'system');
      assert.equal(prompt1.system, sent1[0]!.content);
      assert.deepEqual(
        prompt1.messages.map((message: { role: string; text: string }) => [message.role, message.text]),
        sent1.slice(1).map((message) => [message.role, message.content]),
      );
      assert.match(prompt1.messages.at(-1).text, /What is my balance\?/);
      assert.match(prompt1.messages.at(-1).text, /north/);
      assert.deepEqual(
        prompt1.tools.map((each: { name: string }) => each.name),
        firstRequest!.offeredTools.map((each) => each.name),
      );
      const prompt3 = await promptOf(agent.id, reply.runId, 3);
      const toolMessage = prompt3.messages.find((message: { role: string }) => message.role === 'tool');
      assert.deepEqual(JSON.parse(toolMessage.text), { balance: 100 });
      assert.equal(toolMessage.toolName, 'balance');
      assert.deepEqual(JSON.parse(toolMessage.text), JSON.parse(secondRequest!.toolResults[0]!.content));
      assert.equal(prompt3.messages.length, prompt1.messages.length + 2, 'the round: the call and its result');
    });

    it('records a reply of one step too', async () => {
      const agent = await agentWith();
      fake.enqueue({ reply: 'Hello.' });
      const reply = await send(agent.id, { text: 'Hi', userId: 'bo' });
      // Until the journal's flush, the run's steps are what its reply holds: no timings, no prompt yet.
      const body = await stepsOf(
        agent.id,
        reply.runId,
        (steps) => steps.length === 1 && steps[0]!.model?.firstTokenMs !== null,
      );
      assert.equal(body.data[0].kind, 'model');
      assert.equal(body.data[0].model.text, 'Hello.');
      const prompt = await promptOf(agent.id, reply.runId, 1);
      assert.equal(prompt.messages.at(-1).text, 'Hi');
    });

    it('shows the approvals a run paused for, and where the reply went on', async () => {
      const agent = await agentWith({ tools: ['transfer'] });
      fake.enqueue({ toolCalls: [{ name: 'transfer', input: { amount: 5 } }] });
      const paused = await send(agent.id, { text: 'Send 5 to Bo', userId: 'cy' });
      assert.equal(paused.finishReason, 'approval_required');
      const before = await stepsOf(agent.id, paused.runId, (steps) => steps.some((step) => step.kind === 'approval'));
      const asked = (before.data as Step[]).find((step) => step.kind === 'approval')!;
      assert.equal(asked.approval!.status, 'pending');
      assert.equal(asked.approval!.toolName, 'transfer');
      assert.deepEqual(asked.approval!.input, { amount: 5 });

      fake.enqueue({ reply: 'Sent.' });
      const decided = await t.inject({
        method: 'POST',
        url: `/v1/agents/${agent.id}/approvals/${paused.approvals[0].approvalId}`,
        payload: { decision: 'approve' },
      });
      assert.equal(decided.statusCode, 200, decided.body);
      const resumedRunId = decided.json().resumedRunId as string;
      const resumed = await stepsOf(agent.id, resumedRunId, (steps) => steps.at(-1)?.kind === 'model');
      assert.deepEqual(
        (resumed.data as Step[]).map((step) => step.kind),
        ['resume', 'tool', 'model'],
      );
      assert.deepEqual(resumed.data[0].resume, { reason: 'approval', fromRunId: paused.runId, calls: 1 });
      assert.deepEqual(resumed.data[1].tool.output, { sent: 5 });
      const after = await stepsOf(agent.id, paused.runId, (steps) =>
        steps.some((step) => step.approval?.status === 'approved'),
      );
      assert.equal(
        (after.data as Step[]).find((step) => step.kind === 'approval')!.approval!.resumedRunId,
        resumedRunId,
      );
      // The resumed step's prompt carries the approved call's result.
      const prompt = await promptOf(agent.id, resumedRunId, 3);
      const result = prompt.messages.find((message: { role: string }) => message.role === 'tool');
      assert.deepEqual(JSON.parse(result.text), { sent: 5 });
    });

    it('is read with agents:read of the run’s account only; a step that is not a model step has no prompt', async () => {
      const agent = await agentWith();
      fake.enqueue({ toolCalls: [{ name: 'balance', input: {} }] });
      fake.enqueue({ reply: 'Done.' });
      const reply = await send(agent.id, { text: 'Balance?', userId: 'di' });
      await stepsOf(agent.id, reply.runId, (steps) => steps.length === 3);
      const url = `/v1/agents/${agent.id}/runs/${reply.runId}/steps`;
      const stranger = await t.newAccount();
      for (const path of [url, `${url}/1/prompt`]) {
        const response = await t.inject({ method: 'GET', url: path, as: stranger });
        assert.equal(response.statusCode, 404, path);
      }
      const sender = await t.newKey(t.owner.accountId, ['messages:send']);
      assert.equal((await t.inject({ method: 'GET', url: `${url}/1/prompt`, as: sender })).statusCode, 403);
      const toolPrompt = await t.inject({ method: 'GET', url: `${url}/2/prompt` });
      assert.equal(toolPrompt.statusCode, 404);
      assert.equal(toolPrompt.json().code, 'not_found');
      assert.equal((await t.inject({ method: 'GET', url: `${url}/99/prompt` })).statusCode, 404);
      const bad = await t.inject({ method: 'GET', url: `${url}/0/prompt` });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().errors[0].path, '/path/index');
    });

    it('lists the account’s runs over its agents, newest first, by agent and trigger, page by page', async () => {
      const account = await t.newAccount();
      const create = async () =>
        (
          await t.inject({
            method: 'POST',
            url: '/v1/agents',
            payload: { name: 'Ava', model: { provider: 'openai-compatible', name: 'test-model' } },
            as: account,
          })
        ).json();
      const [one, two] = [await create(), await create()];
      const runIds: string[] = [];
      for (const agent of [one, two, one]) {
        fake.enqueue({ reply: 'ok' });
        const response = await t.inject({
          method: 'POST',
          url: `/v1/agents/${agent!.id}/messages`,
          payload: { text: 'hi' },
          as: account,
        });
        runIds.push(response.json().runId);
      }
      const all = (await t.inject({ method: 'GET', url: '/v1/runs', as: account })).json();
      assert.deepEqual(
        all.data.map((run: { id: string }) => run.id),
        [...runIds].reverse(),
      );
      const ofOne = (await t.inject({ method: 'GET', url: `/v1/runs?agentId=${one!.id}`, as: account })).json();
      assert.deepEqual(
        ofOne.data.map((run: { id: string }) => run.id),
        [runIds[2], runIds[0]],
      );
      const first = (await t.inject({ method: 'GET', url: '/v1/runs?limit=2', as: account })).json();
      assert.equal(first.data.length, 2);
      assert.equal(first.pagination.hasMore, true);
      const rest = (
        await t.inject({ method: 'GET', url: `/v1/runs?limit=2&cursor=${first.pagination.nextCursor}`, as: account })
      ).json();
      assert.deepEqual(
        rest.data.map((run: { id: string }) => run.id),
        [runIds[0]],
      );
      const tasks = (await t.inject({ method: 'GET', url: '/v1/runs?trigger=task', as: account })).json();
      assert.deepEqual(tasks.data, []);
      const others = (await t.inject({ method: 'GET', url: '/v1/runs' })).json();
      assert.ok(
        others.data.every((run: { id: string }) => !runIds.includes(run.id)),
        'another account sees none',
      );
      const bad = await t.inject({ method: 'GET', url: '/v1/runs?status=done', as: account });
      assert.equal(bad.statusCode, 400);
    });
  });
}
