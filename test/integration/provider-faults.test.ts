import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startFakeAnthropicServer } from '../helpers/fake-anthropic-server.js';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeBehaviour, FakeProviderServer } from '../helpers/fake-provider-server.js';
import { sendStreamedMessage } from '../helpers/message-stream.js';
import { deltaText, type ReceivedEvent } from '../helpers/sse-client.js';
import { createTestApp, generousRateLimits, type TestApp } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Every way a model provider can fail, against the fake OpenAI-compatible and
 * Anthropic servers, over real HTTP to a listening agentd, streamed and not.
 * Whatever the fault, the client hears of it within a bound (a 503
 * `provider_unavailable` problem with Retry-After before the first byte, a
 * `message.failed` event after it), the agent's one in-flight slot is free
 * again, what was said before a failure is kept with finishReason `error`,
 * history never holds half an exchange, and agentd has closed its connection
 * to the provider. Storage plays no part in these paths, so SQLite alone.
 */

const providerTimeoutMs = 300;
/** Three attempts of the time-out each, and the backoff between them, with room to spare on a loaded machine. */
const answerWithinMs = 5_000;

const wireFormats = [
  { label: 'OpenAI-compatible', start: startFakeOpenAiServer, provider: 'openai-compatible', model: 'test-model' },
  { label: 'Anthropic', start: startFakeAnthropicServer, provider: 'anthropic', model: 'claude-haiku-4-5' },
] as const;

interface JsonAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** A non-streamed message over its own connection (no keep-alive: nothing is left open between tests). */
function postMessage(base: string, key: string, agentId: string, body: Record<string, unknown>): Promise<JsonAnswer> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(`${base}/v1/agents/${agentId}/messages`, {
      method: 'POST',
      agent: false,
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(payload),
      },
    });
    request.once('error', reject);
    request.once('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('error', reject);
      response.once('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
        }),
      );
    });
    request.end(payload);
  });
}

/** Faults before anything reached the client: every attempt fails, so the answer is a 503 problem. */
const faultsBeforeTheFirstByte: Array<{
  fault: string;
  /** A function when the answer depends on the time of the request. */
  behaviour: FakeBehaviour | (() => FakeBehaviour);
  /** The Retry-After agentd must pass on, as a range of seconds; else any of at least 1 s. */
  retryAfter?: [number, number];
  /** Model calls made: one and two retries, unless the provider asked for a later time. */
  attempts?: number;
}> = [
  { fault: 'a provider that never sends its first token', behaviour: { hang: true } },
  { fault: 'a provider answering 500', behaviour: { status: 500 } },
  { fault: 'a provider answering 503', behaviour: { status: 503 } },
  {
    fault: 'a provider answering 429 with Retry-After',
    behaviour: { status: 429, errorHeaders: { 'retry-after': '7' } },
    retryAfter: [7, 7],
    attempts: 1,
  },
  {
    fault: 'a provider answering 429 with Retry-After: 0',
    behaviour: { status: 429, errorHeaders: { 'retry-after': '0' } },
  },
  {
    // RFC 9110 allows a date as well as seconds; some gateways in front of providers send one.
    fault: 'a provider answering 429 with Retry-After as an HTTP date',
    behaviour: () => ({
      status: 429,
      errorHeaders: { 'retry-after': new Date(Date.now() + 30_000).toUTCString() },
    }),
    retryAfter: [28, 31],
    attempts: 1,
  },
  {
    fault: 'a 200 whose body is cut-off JSON',
    behaviour: { rawAnswer: { contentType: 'application/json', body: '{"id": "chatcmpl-1", "choices": [{' } },
  },
  {
    fault: 'a 200 that is an HTML page, not the API',
    behaviour: { rawAnswer: { contentType: 'text/html', body: '<html><body>502 Bad Gateway</body></html>' } },
  },
];

/**
 * Faults after the model's first words: the stream has begun, so the client hears `message.failed`. The words are
 * paced as a provider paces them: a fault in the same instant as the first words can reach agentd before them
 * (web streams drop what is queued when they fail), and is then a fault before the first byte, retried.
 */
const faultsMidAnswer: Array<{ fault: string; behaviour: FakeBehaviour }> = [
  {
    fault: 'a stream cut off after two words',
    behaviour: { reply: 'one two three four', tokenDelayMs: 20, failAfterChunks: 2 },
  },
  {
    fault: 'a stream that stalls after two words',
    behaviour: { reply: 'one two three four', tokenDelayMs: 20, stallAfterChunks: 2 },
  },
  {
    fault: 'a stream whose third frame is not JSON',
    behaviour: { reply: 'one two three four', tokenDelayMs: 20, garbageAtChunk: 2 },
  },
];

for (const wire of wireFormats) {
  describe(`provider faults over the ${wire.label} wire format`, () => {
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
          AGENTD_PROVIDER_TIMEOUT_MS: String(providerTimeoutMs),
          AGENTD_PROVIDER_RETRY_DELAY_MS: '1',
          // Each test fails replies on purpose; an open circuit would answer the next ones before the fake is asked.
          AGENTD_CIRCUIT_FAILURE_THRESHOLD: '1000',
          // One slot per agent: a slot a failure kept would refuse the next message.
          AGENTD_RATE_LIMITS: `${generousRateLimits},sendMessageConcurrency=1`,
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

    const history = async (agentId: string, userId: string) => {
      const response = await t.inject({ method: 'GET', url: `/v1/agents/${agentId}/messages?userId=${userId}` });
      assert.equal(response.statusCode, 200, response.body);
      return response.json().data as Array<{ role: string; text: string; finishReason?: string }>;
    };

    /** Every request the fake received has ended: none is left waiting on a provider connection. */
    const providerConnectionsEnded = async () => {
      const took = await waitFor(() => fake.requests.every((request) => request.closed), 2_000);
      assert.notEqual(took, null, 'a provider request is still open');
    };

    /** The agent's only slot is free and agentd still answers: a next message is admitted and completes. */
    const nextMessageAnswered = async (agentId: string, userId: string, stream: boolean) => {
      fake.enqueue({ reply: 'Back again.' });
      if (stream) {
        const next = await sendStreamedMessage(base, t.owner.key, agentId, { text: 'again', userId });
        assert.equal(next.status, 200, JSON.stringify(next.problem));
        const events = await next.events!.rest();
        assert.equal(events.at(-1)?.event, 'message.completed');
      } else {
        const next = await postMessage(base, t.owner.key, agentId, { text: 'again', userId });
        assert.equal(next.status, 200, JSON.stringify(next.body));
        assert.equal(next.body.text, 'Back again.');
      }
    };

    for (const stream of [false, true]) {
      const mode = stream ? 'streamed' : 'not streamed';

      for (const { fault, behaviour, retryAfter, attempts = 3 } of faultsBeforeTheFirstByte) {
        it(`${fault} (${mode}): 503 provider_unavailable with Retry-After, the slot free, nothing stored`, async () => {
          const agent = await t.newAgent();
          fake.setDefault(typeof behaviour === 'function' ? () => behaviour() : behaviour);
          const started = Date.now();
          let status: number;
          let headers: http.IncomingHttpHeaders;
          let problem: any;
          if (stream) {
            const answer = await sendStreamedMessage(base, t.owner.key, agent.id, { text: 'hello', userId: 'u1' });
            ({ status, headers, problem } = answer);
          } else {
            const answer = await postMessage(base, t.owner.key, agent.id, { text: 'hello', userId: 'u1' });
            ({ status, headers, body: problem } = answer);
          }
          const tookMs = Date.now() - started;
          assert.equal(status, 503, JSON.stringify(problem));
          assert.match(String(headers['content-type']), /^application\/problem\+json/);
          assert.equal(problem.code, 'provider_unavailable');
          const [fewest, most] = retryAfter ?? [1, 3600];
          const seconds = Number(headers['retry-after']);
          assert.ok(seconds >= fewest && seconds <= most, `Retry-After: ${headers['retry-after']}`);
          assert.ok(tookMs < answerWithinMs, `answered after ${tookMs} ms`);
          assert.equal(fake.requests.length, attempts, 'retries only before the first byte, and only when welcome');
          await providerConnectionsEnded();
          if (typeof behaviour !== 'function' && behaviour.hang)
            assert.ok(fake.requests.every((request) => request.aborted));
          assert.deepEqual(await history(agent.id, 'u1'), [], 'a reply that never began leaves no turn behind');

          fake.reset();
          await nextMessageAnswered(agent.id, 'u1', stream);
          assert.deepEqual(
            (await history(agent.id, 'u1')).map((turn) => turn.role),
            ['agent', 'user'],
            'only the exchange that was answered',
          );
          const after = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}` });
          assert.equal(after.json().status, 'active', 'a transient fault leaves the agent active');
        });
      }

      for (const { fault, behaviour } of faultsMidAnswer) {
        it(`${fault} (${mode}): the failure reaches the client, what was said is kept as an error`, async () => {
          const agent = await t.newAgent();
          fake.setDefault(behaviour);
          const started = Date.now();
          if (stream) {
            const answer = await sendStreamedMessage(base, t.owner.key, agent.id, { text: 'count', userId: 'u2' });
            assert.equal(answer.status, 200, JSON.stringify(answer.problem));
            // rest() resolves only when agentd ends the response: the client is not left hanging either.
            const events: ReceivedEvent[] = await answer.events!.rest();
            assert.deepEqual(
              events.map((event) => event.event),
              ['message.started', 'message.delta', 'message.delta', 'message.failed'],
            );
            assert.equal(deltaText(events), 'one two ');
            const failed = events.at(-1)!.data;
            assert.equal(failed.id, events[0]!.data.id);
            assert.equal(failed.error.code, 'provider_unavailable');
            assert.equal(failed.error.status, 503);
          } else {
            const answer = await postMessage(base, t.owner.key, agent.id, { text: 'count', userId: 'u2' });
            assert.equal(answer.status, 503, JSON.stringify(answer.body));
            assert.equal(answer.body.code, 'provider_unavailable');
            assert.ok(Number(answer.headers['retry-after']) >= 1);
          }
          const tookMs = Date.now() - started;
          assert.ok(tookMs < answerWithinMs, `answered after ${tookMs} ms`);
          assert.equal(fake.requests.length, 1, 'no retry once the answer has begun');
          await providerConnectionsEnded();
          if (behaviour.stallAfterChunks !== undefined) {
            assert.equal(fake.requests[0]!.aborted, true, 'agentd closed the stalled provider connection itself');
          }

          const turns = await history(agent.id, 'u2');
          assert.deepEqual(
            turns.map(({ role, text, finishReason }) => ({ role, text, finishReason })),
            [
              { role: 'agent', text: 'one two ', finishReason: 'error' },
              { role: 'user', text: 'count', finishReason: undefined },
            ],
          );

          fake.reset();
          await nextMessageAnswered(agent.id, 'u2', stream);
          assert.deepEqual(
            (await history(agent.id, 'u2')).map((turn) => turn.role),
            ['agent', 'user', 'agent', 'user'],
          );
        });
      }

      it(`invalid tool-call JSON (${mode}) goes back to the model as a tool error, and the reply completes`, async () => {
        const agent = await t.newAgent({ plugins: [{ name: 'math' }] });
        fake.enqueue(
          { toolCalls: [{ id: 'call_broken', name: 'calculate', inputText: '{"expression": "2+' }] },
          { reply: 'I could not read my own request.' },
        );
        let reply: any;
        if (stream) {
          const answer = await sendStreamedMessage(base, t.owner.key, agent.id, { text: '2+2?', userId: 'u3' });
          assert.equal(answer.status, 200, JSON.stringify(answer.problem));
          const events = await answer.events!.rest();
          const names = events.map((event) => event.event);
          assert.deepEqual(names.slice(0, 3), ['message.started', 'tool.called', 'tool.completed']);
          assert.equal(names.at(-1), 'message.completed');
          assert.ok(
            names.slice(3, -1).every((name) => name === 'message.delta'),
            names.join(' '),
          );
          reply = events.at(-1)!.data;
          assert.equal(deltaText(events), reply.text);
        } else {
          const answer = await postMessage(base, t.owner.key, agent.id, { text: '2+2?', userId: 'u3' });
          assert.equal(answer.status, 200, JSON.stringify(answer.body));
          reply = answer.body;
        }
        assert.equal(reply.text, 'I could not read my own request.');
        assert.equal(reply.finishReason, 'stop');
        assert.equal(reply.toolCalls.length, 1);
        assert.equal(reply.toolCalls[0].toolCallId, 'call_broken');
        assert.match(reply.toolCalls[0].error, /not valid JSON/);
        assert.equal(fake.requests.length, 2);
        assert.match(fake.requests[1]!.toolResults[0]!.content, /not valid JSON/);
        await providerConnectionsEnded();
        assert.deepEqual(
          (await history(agent.id, 'u3')).map((turn) => turn.role),
          ['agent', 'tool', 'user'],
        );
        await nextMessageAnswered(agent.id, 'u3', stream);
      });
    }

    it('still serves after every fault', async () => {
      const health = await new Promise<number>((resolve, reject) =>
        http
          .get(`${base}/healthz`, { agent: false }, (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          })
          .once('error', reject),
      );
      assert.equal(health, 200);
    });
  });
}
