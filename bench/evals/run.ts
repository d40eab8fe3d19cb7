import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateApiKey } from '../../src/security/api-key-secret.js';
import { startFakeOpenAiServer } from '../../test/helpers/fake-openai-server.js';
import { systemTextOf, type RecordedRequest } from '../../test/helpers/fake-provider-server.js';
import { startServer, type ServerProcess } from '../../test/helpers/server-process.js';

/**
 * An eval of 100 cases (one message each; contains, regex, tokens and finishReason scorers, and a rubric when a
 * judge is at hand), two versions of one agent, run to its end through the API of agentd serving in a process of
 * its own (dist/): (a) on the builtin model, (b) on the fake OpenAI-compatible provider on loopback answering
 * each call after 50–200 ms, as a hosted provider would, with the judge on the same provider. Reported: wall
 * time from the POST to the eval seen ended, results per second (a case answered and scored in one version), model calls
 * (counted at the fake provider for (b); from agentd's Prometheus model-call counter for both), and the
 * eval's own per-case latency (each case's `latencyMs`) p50/p95.
 *
 *   npm run bench:evals                        # concurrency 2 (the default) and 10 (the most)
 *   npm run bench:evals -- --concurrency 4     # one setting
 */
const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '100' },
    concurrency: { type: 'string', multiple: true },
    'min-delay': { type: 'string', default: '50' },
    'max-delay': { type: 'string', default: '200' },
  },
});
const caseCount = Number(values.cases);
const concurrencies = (values.concurrency ?? ['2', '10']).map(Number);
const minDelayMs = Number(values['min-delay']);
const maxDelayMs = Number(values['max-delay']);

/** A deterministic stream of delays (the same for every run), uniform between the bounds. */
function delays(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return minDelayMs + Math.round((state / 2 ** 31) * (maxDelayMs - minDelayMs));
  };
}

const topics = ['refund', 'delivery', 'password', 'invoice', 'upgrade'] as const;

/**
 * Case i asks about one of five topics with an order number. Both models repeat the message (the builtin one
 * quotes it, the fake's reply starts with it), so contains and regex pass; the second version's instruction,
 * which the fake follows and the builtin model shows as its bio, adds a closing line that a fifth of the cases
 * expect: those cases differ between the versions.
 */
function datasetCases(withRubric: boolean) {
  return Array.from({ length: caseCount }, (_, index) => {
    const topic = topics[index % topics.length]!;
    const order = String(10_000 + index);
    return {
      id: `case-${String(index).padStart(3, '0')}`,
      messages: [`Question ${index} about my ${topic}: order ${order}, what happens next?`],
      expect: [
        { type: 'contains', value: topic },
        { type: 'regex', pattern: `order ${order}\\b` },
        { type: 'tokens', max: 2000 },
        { type: 'finishReason', value: 'stop' },
        ...(index % 5 === 0 ? [{ type: 'contains', value: 'anything else' }] : []),
        ...(withRubric ? [{ type: 'rubric', criteria: `Answers the question about the ${topic} politely.` }] : []),
      ],
    };
  });
}

const closing = 'Is there anything else I can help with?';

/** The text of the request's last user message. */
function lastUserText(request: RecordedRequest): string {
  const last = request.body.messages.filter((message) => message.role === 'user').at(-1);
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return (last.content ?? []).map((part) => part.text ?? '').join('');
}

interface Measured {
  setup: string;
  concurrency: number;
  wallMs: number;
  serverMs: number;
  results: number;
  modelCallsAtProvider: number | null;
  replyCallsAtProvider: number | null;
  judgeCallsAtProvider: number | null;
  modelCallsCounted: number;
  latencyP50: number;
  latencyP95: number;
  passed: string;
  differing: number;
  regexTimeouts: number;
}

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? 0;
}

/** The model calls agentd made so far, by its Prometheus counter (retries included). */
async function modelCallsCounted(server: ServerProcess): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  let count = 0;
  for (const match of text.matchAll(/^agentd_model_call_duration_seconds_count\{[^}]*\} (\d+)$/gm)) {
    count += Number(match[1]);
  }
  return count;
}

async function main() {
  const fake = await startFakeOpenAiServer();
  const nextDelay = delays(42);
  let replyCalls = 0;
  let judgeCalls = 0;
  fake.setDefault((request) => {
    const delayMs = nextDelay();
    if (systemTextOf(request).includes('agentd-eval-judge')) {
      judgeCalls += 1;
      return { delayMs, reply: '{"score": 0.8, "reason": "Answers the question and stays polite."}' };
    }
    replyCalls += 1;
    const instructed = systemTextOf(request).includes('Close every answer');
    return {
      delayMs,
      reply: `About "${lastUserText(request)}": it is being handled and you will hear from us today.${instructed ? ` ${closing}` : ''}`,
    };
  });

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-bench-evals-'));
  const key = generateApiKey();
  const server = await startServer({
    AGENTD_DATA_DIR: dataDir,
    AGENTD_BOOTSTRAP_KEY: key,
    // The default limits (an agent's 10 replies in flight bound an eval's concurrency), but for the reads of the
    // eval every 50 ms, past the 120 a minute a client following it every second needs.
    AGENTD_RATE_LIMITS: 'readEvals=100000',
    AGENTD_BUILTIN_WORD_DELAY_MS: '0',
    AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
    AGENTD_OPENAI_COMPATIBLE_API_KEY: 'sk-bench',
  });
  const api = async <T = Record<string, unknown>>(method: string, url: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${server.url}${url}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const json = await response.json();
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(json)}`);
    return json as T;
  };

  const rows: Measured[] = [];
  try {
    for (const setup of ['builtin', 'fake provider'] as const) {
      const onFake = setup === 'fake provider';
      const agent = await api<{ id: string }>('POST', '/v1/agents', {
        name: 'Bench',
        ...(onFake ? { model: { provider: 'openai-compatible', name: 'bench-model' } } : {}),
      });
      // Version 2: an instruction the fake follows; the builtin model says its bio, so it is put there too.
      await api('PATCH', `/v1/agents/${agent.id}`, { system: `Close every answer with: ${closing}`, bio: [closing] });
      const dataset = await api<{ id: string }>('POST', '/v1/eval-datasets', {
        name: `Bench ${setup}`,
        cases: datasetCases(onFake),
      });
      for (const concurrency of concurrencies) {
        const callsBefore = await modelCallsCounted(server);
        const [replyBefore, judgeBefore, requestsBefore] = [replyCalls, judgeCalls, fake.requests.length];
        const started = performance.now();
        const created = await api<{ id: string }>('POST', `/v1/agents/${agent.id}/evals`, {
          datasetId: dataset.id,
          versions: [1, 2],
          concurrency,
          ...(onFake ? { judge: { provider: 'openai-compatible', model: 'bench-judge' } } : {}),
        });
        type Summary = {
          status: string;
          startedAt: string;
          finishedAt: string;
          differing: number;
          progress: { done: number };
          totals: Array<{ version: number; passed: number; cases: number }>;
        };
        let summary: Summary;
        // A look every 50 ms: the wall time is the eval's to within that.
        for (;;) {
          summary = await api<Summary>('GET', `/v1/agents/${agent.id}/evals/${created.id}?limit=1`);
          if (!['queued', 'running'].includes(summary.status)) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const wallMs = performance.now() - started;
        if (summary.status !== 'completed') throw new Error(`eval ended ${summary.status}`);
        const latencies: number[] = [];
        let regexTimeouts = 0;
        let cursor: string | null = null;
        do {
          const page: {
            cases: Array<{ results: Array<{ latencyMs: number; scores: Array<{ reason: string }> }> }>;
            casesPagination: { hasMore: boolean; nextCursor: string | null };
          } = await api(
            'GET',
            `/v1/agents/${agent.id}/evals/${created.id}?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          );
          for (const entry of page.cases) {
            for (const result of entry.results) {
              latencies.push(result.latencyMs);
              regexTimeouts += result.scores.filter((score) => score.reason.includes('took too long')).length;
            }
          }
          cursor = page.casesPagination.hasMore ? page.casesPagination.nextCursor : null;
        } while (cursor !== null);
        latencies.sort((a, b) => a - b);
        rows.push({
          setup,
          concurrency,
          wallMs,
          serverMs: Date.parse(summary.finishedAt) - Date.parse(summary.startedAt),
          results: summary.progress.done,
          modelCallsAtProvider: onFake ? fake.requests.length - requestsBefore : null,
          replyCallsAtProvider: onFake ? replyCalls - replyBefore : null,
          judgeCallsAtProvider: onFake ? judgeCalls - judgeBefore : null,
          modelCallsCounted: (await modelCallsCounted(server)) - callsBefore,
          latencyP50: percentile(latencies, 0.5),
          latencyP95: percentile(latencies, 0.95),
          passed: summary.totals.map((total) => `v${total.version} ${total.passed}/${total.cases}`).join(', '),
          differing: summary.differing,
          regexTimeouts,
        });
        process.stderr.write(`${setup}, concurrency ${concurrency}: ${(wallMs / 1000).toFixed(1)} s\n`);
      }
    }
  } finally {
    await server.stop();
    await fake.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  const load = os.loadavg().map((value) => value.toFixed(1));
  console.log(
    `${caseCount} cases × 2 versions; ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, load average ${load.join(' ')}`,
  );
  console.log(
    '| model | concurrency | wall time | eval (server) | results/s (case × version) | model calls: at the provider (replies + judge) | agentd counted | per-case latency p50 / p95 | passed | differing | regex time-outs |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) {
    const atProvider =
      row.modelCallsAtProvider === null
        ? '–'
        : `${row.modelCallsAtProvider} (${row.replyCallsAtProvider} + ${row.judgeCallsAtProvider})`;
    console.log(
      `| ${row.setup} | ${row.concurrency} | ${(row.wallMs / 1000).toFixed(2)} s | ${(row.serverMs / 1000).toFixed(2)} s | ` +
        `${(row.results / (row.wallMs / 1000)).toFixed(1)} | ${atProvider} | ${row.modelCallsCounted} | ` +
        `${row.latencyP50} / ${row.latencyP95} ms | ${row.passed} | ${row.differing} | ${row.regexTimeouts} |`,
    );
  }
}

await main();
