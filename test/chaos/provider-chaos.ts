import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateApiKey } from '../../src/security/api-key-secret.js';
import { SeededRandom } from '../durability/seeded-random.js';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeBehaviour, FakeProviderServer } from '../helpers/fake-provider-server.js';
import { sendStreamedMessage } from '../helpers/message-stream.js';
import { startServer } from '../helpers/server-process.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Provider chaos: one agentd process whose model provider (the fake
 * OpenAI-compatible server) misbehaves at set rates under concurrent load:
 * no answer at all, 500, 429 with Retry-After, a stream cut off, a stream
 * with a malformed frame, a stream that stalls after a few words. Then the
 * provider heals. What a user must see: every request ends within the
 * time-outs (a reply, `message.failed`, or a 503/429 problem; never a 500),
 * the circuit opens and closes as documented, no provider connection is left
 * open, and no in-flight slot leaked: each agent takes 10 concurrent
 * messages again.
 */

/**
 * Out of 100 requests to the provider: how many get each fault; the rest (10) are answered well. High enough
 * that 5 failed replies in a row (the circuit's threshold) happen in a few seconds of load.
 */
export const faultRates = { hang: 15, serverError: 20, tooMany: 15, cutStream: 15, malformedStream: 10, stall: 15 };

export interface ProviderChaosOptions {
  durationMs: number;
  seed: number;
  /** Concurrent clients (default 12, over 3 agents). */
  clients?: number;
  log?: (line: string) => void;
}

export interface ProviderChaosResult {
  requests: number;
  /** How the requests ended, by outcome: `completed`, `message.failed`, `503 provider_unavailable`… */
  outcomes: Record<string, number>;
  /** Provider requests by the fault they were given. */
  faults: Record<string, number>;
  /** The slowest request, from send to its end. */
  slowestMs: number;
  /** The bound every request must end within. */
  boundMs: number;
  /** Circuit transitions the server logged, in order. */
  circuit: string[];
  /** The first reply after the provider healed, counted from when it healed. */
  recoveredAfterMs: number | null;
  /** After the run: the 10 concurrent messages each agent got, by status. */
  concurrentAfter: Record<string, number>;
  /** Provider connections still open after the run. */
  openProviderConnections: number;
  problems: string[];
}

const settings = { providerTimeoutMs: 800, retryDelayMs: 100, circuitThreshold: 5, circuitOpenMs: 1_500 };
/**
 * Three attempts of at most the time-out each with the backoff between them, plus the machine's own time:
 * no request may take longer. A stall mid-stream is ended by the same time-out (silence mid-answer).
 */
const requestBoundMs = 3 * settings.providerTimeoutMs + 3 * settings.retryDelayMs + 6_000;

function faultOf(random: SeededRandom): { name: string; behaviour: FakeBehaviour } {
  let roll = random.between(0, 99);
  const reply = 'The harbour opens at dawn and closes at dusk every day';
  for (const [name, rate] of Object.entries(faultRates)) {
    if (roll < rate) {
      switch (name) {
        case 'hang':
          return { name, behaviour: { hang: true } };
        case 'serverError':
          return { name, behaviour: { status: 500 } };
        case 'tooMany':
          return { name, behaviour: { status: 429, errorHeaders: { 'retry-after': '1' } } };
        case 'cutStream':
          return { name, behaviour: { reply, tokenDelayMs: 5, failAfterChunks: 3 } };
        case 'malformedStream':
          return { name, behaviour: { reply, tokenDelayMs: 5, garbageAtChunk: 2 } };
        default:
          return { name, behaviour: { reply, tokenDelayMs: 5, stallAfterChunks: 3 } };
      }
    }
    roll -= rate;
  }
  return { name: 'none', behaviour: { reply, tokenDelayMs: 5 } };
}

async function oneMessage(
  baseUrl: string,
  key: string,
  agentId: string,
  streamed: boolean,
  text: string,
): Promise<string> {
  if (!streamed) {
    const response = await fetch(`${baseUrl}/v1/agents/${agentId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
    });
    const body = (await response.json()) as { code?: string };
    return response.status === 200 ? 'completed' : `${response.status} ${body.code}`;
  }
  const message = await sendStreamedMessage(baseUrl, key, agentId, { text });
  if (message.status !== 200) return `${message.status} ${message.problem?.code}`;
  for (let event = await message.events!.next(); event !== null; event = await message.events!.next()) {
    if (event.event === 'message.completed') return 'stream completed';
    if (event.event === 'message.failed') return `stream message.failed ${event.data.error?.code ?? ''}`.trim();
  }
  return 'stream ended without message.completed or message.failed';
}

export async function providerChaosRun(options: ProviderChaosOptions): Promise<ProviderChaosResult> {
  const log = options.log ?? (() => undefined);
  const random = new SeededRandom(options.seed);
  const key = generateApiKey();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-provider-chaos-'));
  const fake: FakeProviderServer = await startFakeOpenAiServer();
  const faults: Record<string, number> = {};
  let healed = false;
  fake.setDefault(() => {
    const fault = healed ? { name: 'none', behaviour: { reply: 'All is well again.' } } : faultOf(random);
    faults[fault.name] = (faults[fault.name] ?? 0) + 1;
    return fault.behaviour;
  });
  const server = await startServer(
    {
      AGENTD_DATA_DIR: dataDir,
      AGENTD_BOOTSTRAP_KEY: key,
      AGENTD_RATE_LIMITS: 'off',
      AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
      AGENTD_PROVIDER_TIMEOUT_MS: String(settings.providerTimeoutMs),
      AGENTD_PROVIDER_RETRY_DELAY_MS: String(settings.retryDelayMs),
      AGENTD_CIRCUIT_FAILURE_THRESHOLD: String(settings.circuitThreshold),
      AGENTD_CIRCUIT_OPEN_MS: String(settings.circuitOpenMs),
    },
    60_000,
  );
  const problems: string[] = [];
  const outcomes: Record<string, number> = {};
  let slowestMs = 0;
  let requests = 0;
  try {
    const agents: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const response = await fetch(`${server.url}/v1/agents`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Weather ${index}`, model: { provider: 'openai-compatible', name: 'chaos' } }),
      });
      if (response.status !== 201) throw new Error(`create agent: ${response.status} ${await response.text()}`);
      agents.push(((await response.json()) as { id: string }).id);
    }
    const deadline = Date.now() + options.durationMs;
    log(`provider chaos: ${options.durationMs / 1000} s, fault rates ${JSON.stringify(faultRates)}`);
    await Promise.all(
      Array.from({ length: options.clients ?? 12 }, async (_, index) => {
        for (let count = 0; Date.now() < deadline; count += 1) {
          const started = Date.now();
          let outcome: string;
          try {
            outcome = await Promise.race([
              oneMessage(
                server.url,
                key,
                agents[index % agents.length]!,
                count % 2 === 0,
                `Question ${index}-${count}`,
              ),
              new Promise<string>((resolve) => setTimeout(() => resolve('no end within the bound'), requestBoundMs)),
            ]);
          } catch (error) {
            outcome = `broken: ${(error as Error).message}`;
          }
          const tookMs = Date.now() - started;
          requests += 1;
          slowestMs = Math.max(slowestMs, tookMs);
          outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
          const acceptable =
            outcome === 'completed' ||
            outcome === 'stream completed' ||
            outcome.startsWith('stream message.failed') ||
            /^(503|429) /.test(outcome);
          if (!acceptable) problems.push(`request ${index}-${count}: ${outcome} after ${tookMs} ms`);
          else if (tookMs > requestBoundMs) problems.push(`request ${index}-${count} took ${tookMs} ms`);
        }
      }),
    );

    // The provider heals: the circuit lets a trial through after its open time, and closes on its success.
    healed = true;
    const healedAt = Date.now();
    const recoveredAfterMs = await waitFor(
      async () => (await oneMessage(server.url, key, agents[0]!, false, 'Better now?')) === 'completed',
      settings.circuitOpenMs + 10_000,
      100,
    );
    if (recoveredAfterMs === null) problems.push('no reply once the provider healed');
    else log(`first reply ${Date.now() - healedAt} ms after the provider healed`);

    // No slot leaked: each agent takes 10 concurrent messages, all answered.
    const concurrentAfter: Record<string, number> = {};
    for (const agentId of agents) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          oneMessage(server.url, key, agentId, index % 2 === 0, `Again ${index}`),
        ),
      );
      for (const answer of answers) concurrentAfter[answer] = (concurrentAfter[answer] ?? 0) + 1;
    }
    const notAnswered = Object.entries(concurrentAfter).filter(([outcome]) => !/completed$/.test(outcome));
    if (notAnswered.length > 0)
      problems.push(`10 concurrent messages after the run: ${JSON.stringify(concurrentAfter)}`);

    // Every provider connection was closed: by its answer, or by agentd giving up on it at a time-out.
    await waitFor(() => fake.requests.every((request) => request.completed || request.closed), 5_000, 50);
    const openProviderConnections = fake.requests.filter((request) => !request.completed && !request.closed).length;
    if (openProviderConnections > 0) problems.push(`${openProviderConnections} provider connections still open`);

    const circuit = server
      .logEntries()
      .map((entry) => /^circuit of provider \S+ is (\S+)$/.exec(entry.msg ?? '')?.[1])
      .filter((state): state is string => state !== undefined);
    if (!circuit.includes('open')) problems.push('the circuit never opened');
    if (circuit.at(-1) !== 'closed') problems.push(`the circuit ended ${circuit.at(-1) ?? 'never changed'}`);
    const errors = server.logEntries().filter((entry) => Number(entry.level) >= 50);
    for (const entry of errors.slice(0, 5)) problems.push(`server error: ${JSON.stringify(entry).slice(0, 500)}`);
    return {
      requests,
      outcomes,
      faults,
      slowestMs,
      boundMs: requestBoundMs,
      circuit,
      recoveredAfterMs,
      concurrentAfter,
      openProviderConnections,
      problems,
    };
  } finally {
    await server.stop('SIGTERM', 10_000);
    await fake.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
