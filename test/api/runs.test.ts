import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeProviderServer } from '../helpers/fake-provider-server.js';
import { orphanProblem } from '../../src/services/runs/run-runtime.js';
import { deltaText, readEvents, type ReceivedEvent } from '../helpers/sse-client.js';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/wait.js';

/** Runs: every reply is one, background messages, run event streams that resume, cancellation. */
for (const backend of backends) {
  describe(`runs on ${backend.name}`, { skip: backend.skip }, () => {
    let fake: FakeProviderServer;
    let t: TestApp;
    let base: string;
    before(async () => {
      fake = await startFakeOpenAiServer();
      t = await createTestApp({
        backend: backend.name,
        env: {
          AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
          AGENTD_DEFAULT_MODEL: 'openai-compatible/test-model',
          // One message in flight per agent: the tests of waiting runs fill it.
          AGENTD_RATE_LIMITS:
            'createAgent=1000,sendMessage=1000,readRuns=1000,cancelRuns=1000,sendMessageConcurrency=1',
          AGENTD_SSE_KEEPALIVE_MS: '50',
          AGENTD_RUN_FLUSH_MS: '20',
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

    const request = (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
      fetch(`${base}${path}`, {
        method: init.method ?? 'GET',
        headers: {
          ...t.owner.headers,
          ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...init.headers,
        },
        ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      });
    /** A response's JSON, as the tests read it. */
    const json = (response: Response): Promise<any> => response.json();
    const send = (agentId: string, body: Record<string, unknown>, signal?: AbortSignal) =>
      fetch(`${base}/v1/agents/${agentId}/messages`, {
        method: 'POST',
        headers: { ...t.owner.headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        ...(signal ? { signal } : {}),
      });
    const getRun = async (agentId: string, runId: string) =>
      (await t.inject({ method: 'GET', url: `/v1/agents/${agentId}/runs/${runId}` })).json();
    const runEvents = async (agentId: string, runId: string, lastEventId?: number) => {
      const response = await request(`/v1/agents/${agentId}/runs/${runId}/events`, {
        ...(lastEventId !== undefined ? { headers: { 'last-event-id': String(lastEventId) } } : {}),
      });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'text/event-stream; charset=utf-8');
      return readEvents(response.body!).rest();
    };
    const finished = (agentId: string, runId: string) =>
      eventually(async () => {
        const run = await getRun(agentId, runId);
        return ['completed', 'failed', 'cancelled'].includes(run.status) ? run : null;
      }, `run ${runId} to end`);
    const ids = (events: ReceivedEvent[]) => events.map((event) => Number(event.id));

    it('records every reply as a run with the events its stream would send', async () => {
      const agent = await t.newAgent();
      fake.enqueue({ reply: 'Tides turn twice a day.' });
      const sent = await send(agent.id, { text: 'tides?', userId: 'u1' });
      assert.equal(sent.status, 200);
      const reply = await json(sent);
      assert.match(reply.runId, /^run_/);
      const run = await getRun(agent.id, reply.runId);
      assert.equal(run.status, 'completed');
      assert.equal(run.trigger, 'message');
      assert.equal(run.background, false);
      assert.equal(run.input, 'tides?');
      assert.equal(run.userId, 'u1');
      assert.equal(run.messageId, reply.id);
      assert.deepEqual(run.reply, reply);
      assert.equal(run.error, null);
      assert.ok(run.startedAt && run.finishedAt);

      const events = await runEvents(agent.id, reply.runId);
      assert.equal(events[0]?.event, 'message.started');
      assert.equal(events[0]?.data.runId, reply.runId);
      assert.equal(events.at(-1)?.event, 'message.completed');
      assert.deepEqual(events.at(-1)?.data, reply);
      assert.equal(deltaText(events), 'Tides turn twice a day.');
      assert.deepEqual(
        ids(events),
        events.map((_, index) => index + 1),
      );
      assert.equal(run.eventCount, events.length);
    });

    it('lists a reply as running before its provider has answered, and its run is there when its first event is', async () => {
      const agent = await t.newAgent();
      // The provider holds its answer until the run was seen listed: a reply waiting for its first word is a run.
      fake.enqueue({ reply: 'Slow but sure.', delayMs: 60_000 });
      const controller = new AbortController();
      const waiting = send(agent.id, { text: 'take your time', stream: true }, controller.signal).catch(() => null);
      const listed = await eventually(async () => {
        const runs = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/runs` })).json();
        return runs.data.length > 0 ? runs.data[0] : null;
      }, 'the waiting run to be listed');
      assert.equal(listed.status, 'running');
      assert.equal(listed.input, 'take your time');
      assert.equal(fake.requests.length, 1, 'the provider was asked');
      controller.abort();
      await waiting;
      await finished(agent.id, listed.id);

      // A fast provider: the run's id comes with the first event, and the run can be read at once.
      fake.enqueue({ reply: 'Quick.' });
      const response = await send(agent.id, { text: 'quick?', stream: true });
      const events = readEvents(response.body!);
      const started = await events.next();
      assert.equal(started?.event, 'message.started');
      const run = await getRun(agent.id, started.data.runId);
      assert.equal(run.id, started.data.runId);
      await events.rest();
    });

    it('gives each streamed event an id, and replays the run after Last-Event-ID without repeats', async () => {
      const agent = await t.newAgent();
      fake.enqueue({ reply: 'one two three four five six' });
      const response = await send(agent.id, { text: 'count', stream: true });
      const streamed = await readEvents(response.body!).rest();
      assert.deepEqual(
        ids(streamed),
        streamed.map((_, index) => index + 1),
      );
      const runId = streamed[0]?.data.runId;
      await finished(agent.id, runId);
      const resumed = await runEvents(agent.id, runId, 3);
      assert.deepEqual(resumed, streamed.slice(3));
      const fromQuery = await request(`/v1/agents/${agent.id}/runs/${runId}/events?after=5`);
      assert.deepEqual(await readEvents(fromQuery.body!).rest(), streamed.slice(5));
    });

    it('gives a reader past the stored events the run outcome after its last id (a producer killed between flushes)', async () => {
      const agent = await t.newAgent();
      fake.enqueue({ reply: 'alpha beta gamma' });
      const response = await send(agent.id, { text: 'letters', stream: true });
      const streamed = await readEvents(response.body!).rest();
      const runId = streamed[0]?.data.runId;
      await finished(agent.id, runId);
      // A reader that got the final event has nothing more to read…
      assert.deepEqual(await runEvents(agent.id, runId, streamed.length), []);
      // …and one that saw events the dead producer never stored (the sweep numbered the end after the stored
      // ones) still learns how the run ended, instead of a stream that closes with no last event.
      const ahead = await runEvents(agent.id, runId, streamed.length + 2);
      assert.deepEqual(ahead, [{ ...streamed.at(-1)!, id: String(streamed.length + 3) }]);
    });

    it('gives a reader at the number the sweep gave a killed producer’s run its outcome, not a stream without one', async () => {
      const agent = await t.newAgent();
      fake.enqueue({ reply: 'delta epsilon' });
      const response = await send(agent.id, { text: 'more letters', stream: true });
      const streamed = await readEvents(response.body!).rest();
      const runId = streamed[0]?.data.runId;
      await finished(agent.id, runId);
      // As the sweep leaves a run whose instance was killed: failed, its message.failed numbered after the stored
      // events, which may be the number of an event the reader got but the producer never stored.
      const error = orphanProblem(runId);
      await t.deps.database.db
        .updateTable('runs')
        .set({ status: 'failed', result: null, error: JSON.stringify(error) })
        .where('id', '=', runId)
        .execute();
      const resumed = await runEvents(agent.id, runId, streamed.length);
      assert.equal(resumed.length, 1);
      assert.equal(resumed[0]?.event, 'message.failed');
      assert.equal(resumed[0]?.id, String(streamed.length + 1));
      assert.equal(resumed[0]?.data.error.code, 'service_unavailable');
    });

    it('writes the new events of several runs in one statement, each read back as it was sent', async () => {
      const { runs } = t.deps.services.repositories;
      const eventsOf = (text: string) => JSON.stringify([{ event: 'message.delta', data: { id: 'msg_x', text } }]);
      // Quotes, a backslash, a line break, characters beyond the BMP: the batches travel as JSON inside JSON.
      const texts = ['plain', 'say "hi" \\ then\nnewline', 'émoji 🌊 and ✓', ''];
      const batches = texts.map((text, index) => ({
        runId: `run_flush_${backend.name}_${index}`,
        firstSeq: index + 1,
        lastSeq: index + 1,
        events: eventsOf(text),
      }));
      await runs.appendEvents(batches, new Date().toISOString());
      for (const [index, batch] of batches.entries()) {
        assert.deepEqual(await runs.eventsAfter(batch.runId, 0), [
          { firstSeq: index + 1, lastSeq: index + 1, events: eventsOf(texts[index] as string) },
        ]);
      }
    });

    it('answers a background message 202 with the run, and produces it whatever the connection does', async () => {
      const agent = await t.newAgent();
      fake.enqueue({ reply: 'Background work is done now.', tokenDelayMs: 20 });
      const response = await send(agent.id, { text: 'work', background: true, userId: 'u2' });
      assert.equal(response.status, 202);
      const run = await json(response);
      assert.match(run.id, /^run_/);
      assert.equal(response.headers.get('location'), `/v1/agents/${agent.id}/runs/${run.id}`);
      assert.equal(run.background, true);
      assert.equal(run.status, 'queued');
      assert.equal(run.reply, null);

      const events = await runEvents(agent.id, run.id);
      assert.equal(events[0]?.event, 'message.started');
      assert.equal(events.at(-1)?.event, 'message.completed');
      assert.equal(deltaText(events), 'Background work is done now.');
      const done = await finished(agent.id, run.id);
      assert.equal(done.status, 'completed');
      assert.equal(done.reply.text, 'Background work is done now.');
      const history = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/messages?userId=u2` });
      assert.deepEqual(
        history.json().data.map((turn: { text: string }) => turn.text),
        ['Background work is done now.', 'work'],
      );
      // The trail's entry is written once the run has ended, so it can come just after the run reads completed.
      const ended = await eventually(async () => {
        const trail = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/events` });
        return trail.json().data.find((event: { type: string }) => event.type === 'run.completed') ?? null;
      }, 'the run’s end in the agent’s trail');
      assert.equal(ended.data.runId, run.id);
    });

    it('streams a background reply, and one that left resumes it with Last-Event-ID', async () => {
      const agent = await t.newAgent();
      const text = 'a slow reply that keeps going after its reader left the room';
      fake.enqueue({ reply: text, tokenDelayMs: 30 });
      const leaving = new AbortController();
      const response = await send(agent.id, { text: 'go', background: true, stream: true }, leaving.signal);
      assert.equal(response.status, 200);
      const reader = readEvents(response.body!);
      const seen: ReceivedEvent[] = [];
      while (seen.filter((event) => event.event === 'message.delta').length < 3) {
        const event = await reader.next();
        assert.ok(event, 'the stream goes on');
        seen.push(event);
      }
      leaving.abort();
      const runId = seen[0]?.data.runId;
      const rest = await runEvents(agent.id, runId, Number(seen.at(-1)?.id));
      const joined = [...seen, ...rest];
      assert.deepEqual(
        ids(joined),
        joined.map((_, index) => index + 1),
        'no event repeated, none missing',
      );
      assert.equal(joined.at(-1)?.event, 'message.completed');
      assert.equal(deltaText(joined), text);
      assert.equal(joined.at(-1)?.data.text, text);
      assert.equal((await getRun(agent.id, runId)).status, 'completed');
    });

    it('replays from the start a run still going here: written events from the database, then the rest as they come', async () => {
      const agent = await t.newAgent();
      const text = 'one two three four five six seven eight nine ten eleven twelve';
      fake.enqueue({ reply: text, tokenDelayMs: 40 });
      const response = await send(agent.id, { text: 'count', background: true });
      assert.equal(response.status, 202);
      const { id: runId } = await json(response);
      // Several flushes (every 20 ms here) have written the first events while the run goes on.
      await eventually(async () => {
        const run = await getRun(agent.id, runId);
        return run.status === 'running' && run.eventCount >= 5 ? run : null;
      }, 'the run to be well under way');
      const events = await runEvents(agent.id, runId);
      assert.deepEqual(
        ids(events),
        events.map((_, index) => index + 1),
        'every event once, in order',
      );
      assert.equal(events[0]?.event, 'message.started');
      assert.equal(events.at(-1)?.event, 'message.completed');
      assert.equal(deltaText(events), text);
    });

    it('cancels a running background run, keeping what was said, and refuses to cancel it twice', async () => {
      const agent = await t.newAgent();
      fake.enqueue({
        reply: 'w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15 w16 w17 w18 w19 w20',
        tokenDelayMs: 100,
      });
      const run = await json(await send(agent.id, { text: 'long', background: true }));
      await eventually(async () => ((await getRun(agent.id, run.id)).eventCount >= 3 ? true : null), 'some words');
      const cancelled = await request(`/v1/agents/${agent.id}/runs/${run.id}/cancel`, { method: 'POST', body: {} });
      assert.equal(cancelled.status, 200);
      const view = await json(cancelled);
      assert.equal(view.status, 'cancelled');
      assert.ok(view.cancelRequestedAt);
      assert.equal(view.reply.finishReason, 'aborted');
      assert.ok(view.reply.text.startsWith('w1 '), view.reply.text);
      assert.ok(!view.reply.text.includes('w20'));
      await fake.waitForAbort(0);
      const events = await runEvents(agent.id, run.id);
      assert.equal(events.at(-1)?.event, 'message.completed');
      assert.equal(events.at(-1)?.data.finishReason, 'aborted');

      const again = await request(`/v1/agents/${agent.id}/runs/${run.id}/cancel`, { method: 'POST', body: {} });
      assert.equal(again.status, 409);
      assert.equal((await json(again)).code, 'conflict');
    });

    it('makes a background run wait for a busy agent, not vanish, while a plain message is refused', async () => {
      const agent = await t.newAgent();
      fake.enqueue({ reply: 'holding the only slot for a while', tokenDelayMs: 60 });
      fake.enqueue({ reply: 'my turn came' });
      const holder = await send(agent.id, { text: 'hold', stream: true });
      const reader = readEvents(holder.body!);
      assert.equal((await reader.next())?.event, 'message.started');

      const refused = await send(agent.id, { text: 'now' });
      assert.equal(refused.status, 429);
      const queued = await json(await send(agent.id, { text: 'later', background: true }));
      assert.equal((await getRun(agent.id, queued.id)).status, 'queued');
      await reader.rest();
      const done = await finished(agent.id, queued.id);
      assert.equal(done.status, 'completed');
      assert.equal(done.reply.text, 'my turn came');
    });

    it('lists runs newest first, by trigger and status, page by page', async () => {
      const agent = await t.newAgent();
      const other = await t.newAgent();
      const runIds: string[] = [];
      for (const text of ['a', 'b', 'c']) runIds.push((await json(await send(agent.id, { text }))).runId);
      await send(other.id, { text: 'elsewhere' });
      const door = await request('/v1/chat/completions', {
        method: 'POST',
        body: { model: agent.id, messages: [{ role: 'user', content: 'via the door' }] },
      });
      assert.equal(door.status, 200, await door.clone().text());

      const all = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/runs` })).json();
      assert.equal(all.data.length, 4);
      assert.deepEqual(
        all.data.map((run: { trigger: string }) => run.trigger),
        ['door', 'message', 'message', 'message'],
      );
      assert.deepEqual(
        all.data.slice(1).map((run: { id: string }) => run.id),
        [...runIds].reverse(),
      );
      const doors = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/runs?trigger=door` })).json();
      assert.equal(doors.data.length, 1);
      const completed = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/runs?status=completed` })).json();
      assert.equal(completed.data.length, 4);
      const none = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/runs?status=failed` })).json();
      assert.equal(none.data.length, 0);

      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const page: any = (
          await t.inject({
            method: 'GET',
            url: `/v1/agents/${agent.id}/runs?limit=1${cursor ? `&cursor=${cursor}` : ''}`,
          })
        ).json();
        paged.push(...page.data.map((run: { id: string }) => run.id));
        cursor = page.pagination.nextCursor;
      } while (cursor !== null);
      assert.deepEqual(
        paged,
        all.data.map((run: { id: string }) => run.id),
      );
    });

    it('answers bad input with a problem and a pointer, and stores no run for an agent that cannot answer', async () => {
      const agent = await t.newAgent();
      const reply = await json(await send(agent.id, { text: 'x' }));
      const badHeader = await request(`/v1/agents/${agent.id}/runs/${reply.runId}/events`, {
        headers: { 'last-event-id': 'yesterday' },
      });
      assert.equal(badHeader.status, 400);
      assert.equal((await json(badHeader)).errors[0].path, '/headers/last-event-id');
      const badAfter = await t.inject({
        method: 'GET',
        url: `/v1/agents/${agent.id}/runs/${reply.runId}/events?after=-1`,
      });
      assert.equal(badAfter.statusCode, 400);
      const badCursor = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/runs?cursor=nope` });
      assert.equal(badCursor.statusCode, 400);
      assert.equal(badCursor.json().errors[0].path, '/query/cursor');
      const badStatus = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/runs?status=sleeping` });
      assert.equal(badStatus.statusCode, 400);
      const unknown = await t.inject({
        method: 'GET',
        url: `/v1/agents/${agent.id}/runs/run_01ARZ3NDEKTSV4RRFFQ69G5FAV`,
      });
      assert.equal(unknown.statusCode, 404);

      await t.inject({ method: 'PATCH', url: `/v1/agents/${agent.id}`, payload: { status: 'inactive' } });
      const refused = await send(agent.id, { text: 'are you there', background: true });
      assert.equal(refused.status, 503);
      assert.equal((await json(refused)).code, 'agent_unavailable');
      const runs = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/runs` })).json();
      assert.equal(runs.data.length, 1, 'only the first message is a run');

      const deleted = await t.inject({ method: 'DELETE', url: `/v1/agents/${agent.id}` });
      assert.equal(deleted.statusCode, 200);
      assert.equal((await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/runs` })).statusCode, 404);
      const { db } = t.deps.services.repositories;
      const left = await db.selectFrom('runs').select('id').where('agent_id', '=', agent.id).execute();
      assert.deepEqual(left, [], "a deleted agent's runs go with it");
      const events = await db.selectFrom('run_events').select('run_id').where('run_id', '=', reply.runId).execute();
      assert.deepEqual(events, []);
    });
  });
}
