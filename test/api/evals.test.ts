import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../src/ids.js';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeProviderServer, RecordedRequest } from '../helpers/fake-provider-server.js';
import { startFakeWebhookReceiver, type FakeWebhookReceiver } from '../helpers/fake-webhook-receiver.js';
import { startSideEffectCounter, type SideEffectCounter } from '../helpers/side-effect-counter.js';
import { backends, createTestApp, generousRateLimits, type TestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/wait.js';

/**
 * Evals: a dataset of cases answered by two versions of an agent through the
 * normal reply path, isolated (no real conversation, memory or webhook of
 * messages touched; tools with side effects not run), scored by every kind of
 * scorer, with the cases whose outcome differs listed first.
 */

/** The text of a request's last user message. */
function lastUserText(request: RecordedRequest): string {
  const users = request.body.messages.filter((message) => message.role === 'user');
  const content = users[users.length - 1]?.content;
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => part.text ?? '').join('');
}

function systemText(request: RecordedRequest): string {
  const system = request.body.messages.find((message) => message.role === 'system')?.content;
  return typeof system === 'string' ? system : JSON.stringify(system ?? '');
}

for (const backend of backends) {
  describe(`evals on ${backend.label}`, { skip: backend.skip }, () => {
    let fake: FakeProviderServer;
    let counter: SideEffectCounter;
    let receiver: FakeWebhookReceiver;
    let t: TestApp;

    before(async () => {
      fake = await startFakeOpenAiServer();
      counter = await startSideEffectCounter();
      receiver = await startFakeWebhookReceiver();
      // The model answers as the version's bio says it is, calls tools when a message asks, and judges as asked.
      fake.setDefault((request) => {
        if (systemText(request).includes('agentd-eval-judge')) {
          return { reply: '{"score": 0.9, "reason": "Polite and on topic."}' };
        }
        const text = lastUserText(request);
        const version = systemText(request).includes('second edition') ? 'v2' : 'v1';
        if (request.toolResults.length === 0) {
          const marker = /post (\w+)/.exec(text)?.[1];
          if (marker !== undefined) {
            return {
              toolCalls: [
                { name: 'fetch_url', input: { url: `${counter.origin}/effects/${marker}`, method: 'POST', body: 'x' } },
              ],
            };
          }
          const read = /read (\w+)/.exec(text)?.[1];
          if (read !== undefined) {
            return { toolCalls: [{ name: 'fetch_url', input: { url: `${counter.origin}/reads/${read}` } }] };
          }
        }
        if (text.includes('json please')) return { reply: '{"answer": 42}' };
        return { reply: `${version} answers: ${text}` };
      });
      t = await createTestApp({
        backend: backend.name,
        env: {
          AGENTD_RATE_LIMITS: `${generousRateLimits},readEvals=100000,writeEvals=100000`,
          AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
          AGENTD_DEFAULT_MODEL: 'openai-compatible/test-model',
          AGENTD_PROVIDER_RETRY_DELAY_MS: '1',
          AGENTD_OUTBOUND_ALLOW_PRIVATE: 'true',
          AGENTD_WEBHOOK_RETRY_BASE_MS: '10',
        },
      });
    });
    after(async () => {
      await t?.close();
      await fake?.close();
      await counter?.close();
      await receiver?.close();
    });

    const post = (url: string, payload?: object, as = t.owner) =>
      t.inject({ method: 'POST', url, ...(payload ? { payload } : {}), as });
    const get = (url: string, as = t.owner) => t.inject({ method: 'GET', url, as });

    /** 20 cases: every scorer kind, side effects stubbed and one allowed, one multi-message case. */
    function twentyCases() {
      const cases: any[] = [
        { id: 'contains', messages: ['hello there'], expect: [{ type: 'contains', value: 'hello there' }] },
        { id: 'differs', messages: ['which edition'], expect: [{ type: 'contains', value: 'v2 answers' }] },
        { id: 'not-contains', messages: ['hi'], expect: [{ type: 'notContains', value: 'goodbye' }] },
        { id: 'regex', messages: ['count 123'], expect: [{ type: 'regex', pattern: 'count \\d+$', flags: 'i' }] },
        { id: 'equals', messages: ['json please'], expect: [{ type: 'equals', value: '{"answer": 42}' }] },
        {
          id: 'json',
          messages: ['json please'],
          expect: [
            {
              type: 'jsonSchema',
              schema: { type: 'object', required: ['answer'], properties: { answer: { type: 'integer' } } },
            },
          ],
        },
        {
          id: 'stubbed-post',
          userId: 'case-user',
          messages: ['please post stubbed'],
          expect: [
            { type: 'toolCalled', name: 'fetch_url', input: { method: 'POST' } },
            { type: 'finishReason', value: 'stop' },
          ],
        },
        {
          id: 'allowed-post',
          messages: ['please post allowed'],
          allowSideEffects: ['fetch_url'],
          expect: [{ type: 'toolCalled', name: 'fetch_url' }],
        },
        { id: 'read', messages: ['read page'], expect: [{ type: 'toolCalled', name: 'fetch_url' }] },
        { id: 'no-tool', messages: ['just talk'], expect: [{ type: 'noToolCalled' }] },
        { id: 'finish', messages: ['finish'], expect: [{ type: 'finishReason', value: 'stop' }] },
        { id: 'latency', messages: ['fast'], expect: [{ type: 'latencyMs', max: 60_000 }] },
        { id: 'tokens', messages: ['few'], expect: [{ type: 'tokens', max: 100_000 }] },
        { id: 'tokens-over', messages: ['many'], expect: [{ type: 'tokens', max: 1 }] },
        { id: 'cost', messages: ['cheap'], expect: [{ type: 'costUsd', max: 1 }] },
        { id: 'rubric', messages: ['be nice'], expect: [{ type: 'rubric', criteria: 'The reply is polite.' }] },
        {
          id: 'multi',
          userId: 'case-user',
          messages: ['first turn', 'second turn'],
          context: { channel: 'eval' },
          expect: [{ type: 'contains', value: 'second turn' }],
        },
      ];
      for (let index = cases.length; index < 20; index += 1) {
        cases.push({ id: `plain-${index}`, messages: [`plain ${index}`], expect: [] });
      }
      return cases;
    }

    async function newDataset(cases = twentyCases()) {
      const response = await post('/v1/eval-datasets', { name: 'Regression', description: 'twenty cases', cases });
      assert.equal(response.statusCode, 201, response.body);
      return response.json();
    }

    async function twoVersionAgent() {
      const agent = await t.newAgent({
        bio: ['An assistant, first edition.'],
        model: { provider: 'openai-compatible', name: 'test-model' },
        plugins: [{ name: 'http' }],
      });
      const patched = await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${agent.id}`,
        payload: { bio: ['An assistant, second edition.'] },
      });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.equal(patched.json().version, 2);
      return agent;
    }

    async function finished(agentId: string, evalId: string, timeoutMs = 30_000) {
      return eventually(
        async () => {
          const response = await get(`/v1/agents/${agentId}/evals/${evalId}?limit=200`);
          if (response.statusCode === 500 && process.env.EVAL_DEBUG)
            console.log(t.logs?.entries().filter((e) => e.level >= 50));
          assert.equal(response.statusCode, 200, response.body);
          const body = response.json();
          return ['completed', 'failed', 'cancelled'].includes(body.status) ? body : null;
        },
        'the eval to end',
        timeoutMs,
      );
    }

    it('evaluates 20 cases with two versions, isolated, every scorer kind, differing cases first', async () => {
      const webhook = await post('/v1/webhooks', {
        url: receiver.url,
        events: ['eval.completed', 'message.completed', 'message.failed'],
      });
      assert.equal(webhook.statusCode, 201, webhook.body);
      const agent = await twoVersionAgent();
      const memoryBefore = await get(`/v1/agents/${agent.id}/memory?userId=case-user`);
      const dataset = await newDataset();
      assert.equal(dataset.caseCount, 20);

      const created = await post(`/v1/agents/${agent.id}/evals`, {
        datasetId: dataset.id,
        versions: [1, 2],
        concurrency: 4,
      });
      assert.equal(created.statusCode, 202, created.body);
      const started = created.json();
      assert.match(started.id, /^evl_/);
      assert.equal(started.status, 'queued');
      assert.equal(created.headers.location, `/v1/agents/${agent.id}/evals/${started.id}`);
      assert.deepEqual(started.progress, { total: 40, done: 0 });

      const result = await finished(agent.id, started.id);
      assert.equal(result.status, 'completed', JSON.stringify(result.error));
      assert.deepEqual(result.progress, { total: 40, done: 40 });
      assert.equal(result.cases.length, 20);

      // The case whose outcome differs comes first, flagged.
      assert.equal(result.differing, 1, JSON.stringify(result.cases.filter((entry: any) => entry.differs)));
      assert.equal(result.cases[0].caseId, 'differs');
      assert.equal(result.cases[0].differs, true);
      assert.deepEqual(
        result.cases[0].results.map((each: any) => [each.version, each.passed]),
        [
          [1, false],
          [2, true],
        ],
      );
      assert.ok(result.cases.slice(1).every((entry: any) => entry.differs === false));

      const byId = new Map<string, any>(result.cases.map((entry: any) => [entry.caseId, entry]));
      const first = (id: string) => byId.get(id).results[0];
      for (const id of ['contains', 'not-contains', 'regex', 'equals', 'json', 'read', 'no-tool', 'finish']) {
        assert.equal(first(id).passed, true, `${id}: ${JSON.stringify(first(id).scores)}`);
      }
      for (const id of ['latency', 'tokens', 'cost', 'multi', 'stubbed-post', 'allowed-post']) {
        assert.equal(first(id).passed, true, `${id}: ${JSON.stringify(first(id).scores)}`);
      }
      assert.equal(first('tokens-over').passed, false);
      assert.match(first('tokens-over').scores[0].reason, /more than 1/);
      const rubric = first('rubric').scores[0];
      assert.deepEqual(rubric, { type: 'rubric', score: 0.9, passed: true, reason: 'Polite and on topic.' });
      // The case's context (with its userId) goes with each message; the second reply is in the same conversation.
      const [turn1, turn2] = first('multi').replies;
      assert.match(turn1, /"userId":"case-user"[\s\S]*first turn$/);
      assert.match(turn2, /second turn$/);
      const secondRequest = fake.requests.find((request) => lastUserText(request).endsWith('second turn'))!;
      assert.ok(JSON.stringify(secondRequest.body.messages).includes('first turn'), 'the history holds the first turn');
      assert.equal(first('multi').runIds.length, 2);
      assert.ok(first('contains').usage.totalTokens > 0);

      // Totals per version and per scorer kind.
      assert.deepEqual(
        result.totals.map((total: any) => total.version),
        [1, 2],
      );
      const kinds = result.totals[0].scorers.map((scorer: any) => scorer.type).sort();
      assert.deepEqual(kinds, [
        'contains',
        'costUsd',
        'equals',
        'finishReason',
        'jsonSchema',
        'latencyMs',
        'noToolCalled',
        'notContains',
        'regex',
        'rubric',
        'tokens',
        'toolCalled',
      ]);
      assert.equal(result.totals[0].cases, 20);
      assert.equal(result.totals[1].passed - result.totals[0].passed, 1);

      // Side effects: the POST was stubbed (the counter never saw it), the allowed one ran once per version,
      // a GET (no side effects) ran.
      const stubbedCall = first('stubbed-post').toolCalls[0];
      assert.equal(stubbedCall.stubbed, true);
      assert.deepEqual(stubbedCall.output, { stubbed: true, reason: 'not executed in an eval' });
      assert.equal(counter.effects.get('stubbed'), undefined);
      assert.equal(counter.effects.get('allowed'), 2);
      assert.equal(first('allowed-post').toolCalls[0].stubbed, false);
      assert.equal(counter.reads.get('page'), 2);

      // Real conversations untouched: nothing under the case's user, no turns left at all, memory the same.
      const history = await get(`/v1/agents/${agent.id}/messages?userId=case-user`);
      assert.equal(history.statusCode, 200);
      assert.deepEqual(history.json().data, []);
      assert.deepEqual((await get(`/v1/agents/${agent.id}/messages`)).json().data, []);
      const memoryAfter = await get(`/v1/agents/${agent.id}/memory?userId=case-user`);
      assert.equal(memoryAfter.body, memoryBefore.body);
      assert.equal(fake.memoryRequests.length, 0);

      // The replies are runs with the trigger eval.
      const runs = (await get(`/v1/agents/${agent.id}/runs?trigger=eval&limit=100`)).json().data;
      assert.equal(runs.length, 42);
      assert.ok(runs.every((run: any) => run.status === 'completed'));

      // eval.completed is delivered; no message webhooks for eval replies.
      const delivered = await eventually(
        async () => receiver.received.find((request) => JSON.parse(request.body).type === 'eval.completed') ?? null,
        'eval.completed',
      );
      const payload = JSON.parse(delivered.body);
      assert.equal(payload.data.evalId, started.id);
      assert.equal(payload.data.status, 'completed');
      assert.equal(payload.data.differing, 1);
      assert.ok(receiver.received.every((request) => !JSON.parse(request.body).type.startsWith('message.')));

      // Paging the cases: differing only, and a cursor.
      const only = (await get(`/v1/agents/${agent.id}/evals/${started.id}?differsOnly=true`)).json();
      assert.deepEqual(
        only.cases.map((entry: any) => entry.caseId),
        ['differs'],
      );
      const page1 = (await get(`/v1/agents/${agent.id}/evals/${started.id}?limit=15`)).json();
      assert.equal(page1.cases.length, 15);
      const page2 = (
        await get(`/v1/agents/${agent.id}/evals/${started.id}?limit=15&cursor=${page1.casesPagination.nextCursor}`)
      ).json();
      assert.equal(page2.cases.length, 5);
      assert.equal(page2.casesPagination.hasMore, false);
      const seen = new Set([...page1.cases, ...page2.cases].map((entry: any) => entry.caseId));
      assert.equal(seen.size, 20);

      const list = (await get(`/v1/agents/${agent.id}/evals`)).json();
      assert.deepEqual(
        list.data.map((each: any) => each.id),
        [started.id],
      );
      assert.equal(list.data[0].totals.length, 2);

      const ended = await post(`/v1/agents/${agent.id}/evals/${started.id}/cancel`);
      assert.equal(ended.statusCode, 409, ended.body);
    });

    it("answers another account's datasets and evals as missing", async () => {
      const agent = await twoVersionAgent();
      const dataset = await newDataset([{ id: 'one', messages: ['hi'], expect: [] }]);
      const created = (await post(`/v1/agents/${agent.id}/evals`, { datasetId: dataset.id })).json();
      const other = await t.newAccount();
      assert.equal((await get(`/v1/eval-datasets/${dataset.id}`, other)).statusCode, 404);
      assert.equal(
        (await t.inject({ method: 'PATCH', url: `/v1/eval-datasets/${dataset.id}`, payload: { name: 'x' }, as: other }))
          .statusCode,
        404,
      );
      assert.equal(
        (await t.inject({ method: 'DELETE', url: `/v1/eval-datasets/${dataset.id}`, as: other })).statusCode,
        404,
      );
      assert.deepEqual((await get('/v1/eval-datasets', other)).json().data, []);
      assert.equal((await get(`/v1/agents/${agent.id}/evals/${created.id}`, other)).statusCode, 404);
      assert.equal((await post(`/v1/agents/${agent.id}/evals/${created.id}/cancel`, undefined, other)).statusCode, 404);
      // Their own agent, my dataset: 404 too.
      const theirs = await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'Theirs' }, as: other });
      const refused = await post(`/v1/agents/${theirs.json().id}/evals`, { datasetId: dataset.id }, other);
      assert.equal(refused.statusCode, 404, refused.body);
      await finished(agent.id, created.id);
    });

    it('refuses bad input with 400 problems and writes nothing', async () => {
      const before = (await get('/v1/eval-datasets?limit=100')).json().data.length;
      const bad = [
        { name: 'x', cases: [{ id: 'a', messages: [], expect: [] }] },
        { name: 'x', cases: [{ id: 'a', messages: ['m'], expect: [{ type: 'sentiment' }] }] },
        { name: 'x', cases: [{ id: 'a', messages: ['m'], expect: [{ type: 'regex', pattern: '(a+)+$' }] }] },
        { name: 'x', cases: [{ id: 'a', messages: ['m'], expect: [{ type: 'regex', pattern: '(a)\\1' }] }] },
        { name: 'x', cases: [{ id: 'a', messages: ['m'], expect: [{ type: 'regex', pattern: 'a', flags: 'ii' }] }] },
        {
          name: 'x',
          cases: [{ id: 'a', messages: ['m'], expect: [{ type: 'jsonSchema', schema: { type: 'nope' } }] }],
        },
        {
          name: 'x',
          cases: [
            { id: 'a', messages: ['m'], expect: [] },
            { id: 'a', messages: ['n'], expect: [] },
          ],
        },
        { name: 'x', cases: [], extra: true },
        {
          name: 'x',
          cases: Array.from({ length: 1001 }, (_, index) => ({ id: `c${index}`, messages: ['m'], expect: [] })),
        },
      ];
      for (const payload of bad) {
        const response = await post('/v1/eval-datasets', payload);
        assert.equal(response.statusCode, 400, `${JSON.stringify(payload).slice(0, 120)}: ${response.body}`);
        assert.match(String(response.headers['content-type']), /application\/problem\+json/);
        assert.equal(response.json().code, 'validation_failed');
      }
      const duplicate = await post(
        '/v1/eval-datasets',
        bad.find((payload) => payload.cases.length === 2)!,
      );
      assert.equal(duplicate.json().errors[0].path, '/body/cases/1/id');
      assert.equal((await get('/v1/eval-datasets?limit=100')).json().data.length, before);

      const agent = await twoVersionAgent();
      const dataset = await newDataset([{ id: 'one', messages: ['hi'], expect: [] }]);
      for (const payload of [
        { datasetId: dataset.id, versions: [9] },
        { datasetId: dataset.id, versions: [1, 1] },
        { datasetId: dataset.id, versions: [1, 2, 3] },
        { datasetId: dataset.id, concurrency: 0 },
        { datasetId: dataset.id, judge: { provider: 'nowhere', model: 'm' } },
        { datasetId: 'eds_nope' },
        {},
      ]) {
        const response = await post(`/v1/agents/${agent.id}/evals`, payload);
        assert.equal(response.statusCode, 400, `${JSON.stringify(payload)}: ${response.body}`);
      }
      assert.deepEqual((await get(`/v1/agents/${agent.id}/evals`)).json().data, []);
    });

    it('updates, reads and deletes a dataset; an eval keeps its copy of the cases', async () => {
      const agent = await twoVersionAgent();
      const dataset = await newDataset([{ id: 'one', messages: ['hi'], expect: [{ type: 'contains', value: 'hi' }] }]);
      const patched = await t.inject({
        method: 'PATCH',
        url: `/v1/eval-datasets/${dataset.id}`,
        payload: { description: null, cases: [{ id: 'two', messages: ['hey'], expect: [] }] },
      });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.equal(patched.json().description, null);
      assert.equal(patched.json().caseCount, 1);
      const created = (await post(`/v1/agents/${agent.id}/evals`, { datasetId: dataset.id })).json();
      assert.deepEqual(created.versions, [2]);
      const removed = await t.inject({ method: 'DELETE', url: `/v1/eval-datasets/${dataset.id}` });
      assert.deepEqual(removed.json(), { id: dataset.id, deleted: true });
      assert.equal((await t.inject({ method: 'DELETE', url: `/v1/eval-datasets/${dataset.id}` })).statusCode, 404);
      const result = await finished(agent.id, created.id);
      assert.equal(result.status, 'completed');
      assert.equal(result.cases[0].caseId, 'two');
    });

    it('takes over an eval whose instance stopped and answers only the cases without a result', async () => {
      const agent = await twoVersionAgent();
      const cases = ['one', 'two', 'three'].map((id) => ({ id, messages: [`takeover ${id}`], expect: [] }));
      const dataset = await newDataset(cases);
      const { repositories } = t.deps.services;
      const evalId = newId('eval');
      const at = new Date().toISOString();
      await repositories.evals.insert({
        id: evalId,
        account_id: t.owner.accountId,
        agent_id: agent.id,
        dataset_id: dataset.id,
        dataset_name: dataset.name,
        cases: JSON.stringify(cases),
        case_count: 3,
        versions: JSON.stringify([2]),
        judge: JSON.stringify({ provider: 'openai-compatible', model: 'test-model', agentKey: true }),
        concurrency: 2,
        status: 'running',
        instance_id: 'an-instance-that-stopped',
        key_id: t.owner.keyId,
        error: null,
        takeovers: 0,
        cancel_requested_at: null,
        created_at: at,
        started_at: at,
        finished_at: null,
      });
      const recorded = { version: 2, status: 'completed', passed: true, replies: ['before'], text: 'before' };
      await repositories.evals.insertResult({
        eval_id: evalId,
        case_id: 'one',
        version: 2,
        position: 0,
        status: 'completed',
        passed: 1,
        scores: '[]',
        detail: JSON.stringify({
          ...recorded,
          toolCalls: [],
          finishReason: 'stop',
          latencyMs: 1,
          usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
          costUsd: 0,
          runIds: [],
          scores: [],
          error: null,
          finishedAt: at,
        }),
        created_at: at,
      });
      const asked = () => fake.requests.filter((request) => lastUserText(request).includes('takeover ')).length;
      // The heartbeat's claim, as any instance's would be.
      await (t.deps.services.evals as unknown as { beat(): Promise<void> }).beat();
      const result = await finished(agent.id, evalId);
      assert.equal(result.status, 'completed', JSON.stringify(result.error));
      assert.equal(result.takeovers, 1);
      assert.deepEqual(result.progress, { total: 3, done: 3 });
      assert.equal(result.cases[0].results[0].text, 'before');
      assert.equal(asked(), 2);
    });

    it('cancels a running eval: it ends cancelled and keeps what it recorded', async () => {
      const agent = await twoVersionAgent();
      const cases = Array.from({ length: 30 }, (_, index) => ({ id: `slow-${index}`, messages: ['slow'], expect: [] }));
      const dataset = await newDataset(cases);
      fake.enqueue(...cases.map(() => ({ reply: 'slowly', delayMs: 200 })));
      const created = (await post(`/v1/agents/${agent.id}/evals`, { datasetId: dataset.id, concurrency: 1 })).json();
      const cancelled = await post(`/v1/agents/${agent.id}/evals/${created.id}/cancel`);
      assert.equal(cancelled.statusCode, 200, cancelled.body);
      assert.equal(cancelled.json().status, 'cancelled');
      const result = await finished(agent.id, created.id);
      assert.equal(result.status, 'cancelled');
      assert.ok(result.progress.done < 30);
      await eventually(async () => {
        const runs = (await get(`/v1/agents/${agent.id}/runs?trigger=eval&limit=100`)).json().data;
        return runs.every((run: any) => !['queued', 'running'].includes(run.status)) ? runs : null;
      }, "the eval's runs to end");
      fake.reset();
    });
  });
}
