/**
 * What the webhook outbox adds to non-streamed messages: throughput of the
 * same build in four configurations, side by side in one run.
 *
 *   npm run build && node --import tsx bench/message-overhead/outbox.ts
 *
 * - `AGENTD_WEBHOOKS=off`: no outbox reads or writes at all (the baseline);
 * - webhooks on, no subscription: one indexed read of the account's
 *   subscribers per reply, nothing written;
 * - webhooks on, one subscription to `message.completed`: the delivery row is
 *   written in the reply's transaction and delivered (signed POST) to a local
 *   receiver that answers 204, all while the load runs;
 * - the same subscription with `AGENTD_WEBHOOK_DELIVERY=off`: the outbox row
 *   is written and left for delivery workers, so the write alone is measured.
 *
 * Each agentd is its own process (SQLite, rate limits off, LOG_LEVEL=warn),
 * sharing one fake provider that answers at once. The rounds alternate
 * between them, so a noisy moment of the machine falls on all of them.
 * ROUNDS (10), PER_ROUND (1000) and CONCURRENCY (20) can be set.
 */
import http from 'node:http';
import { load, percentile, post, type Timing } from './client.js';
import { startAgentd, startFakeProvider, type Started } from './processes.js';

const rounds = Number(process.env.ROUNDS ?? 10);
const perRound = Number(process.env.PER_ROUND ?? 1000);
const concurrency = Number(process.env.CONCURRENCY ?? 20);

interface Variant {
  label: string;
  env: Record<string, string>;
  subscribe: boolean;
  agentd?: Started & { key: string };
  messagesUrl?: string;
  requestsPerSecond: number[];
  timings: Timing[];
}

const receiver = http.createServer((request, response) => {
  request.resume();
  request.on('end', () => response.writeHead(204).end());
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
let received = 0;
receiver.on('request', () => (received += 1));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;

const provider = await startFakeProvider(0, 0);
const common = {
  AGENTD_OPENAI_COMPATIBLE_BASE_URL: provider.url,
  AGENTD_DEFAULT_MODEL: 'openai-compatible/bench-model',
  AGENTD_OUTBOUND_ALLOW_PRIVATE: 'true',
};
const variants: Variant[] = [
  {
    label: 'AGENTD_WEBHOOKS=off',
    env: { AGENTD_WEBHOOKS: 'off' },
    subscribe: false,
    requestsPerSecond: [],
    timings: [],
  },
  { label: 'webhooks on, no subscription', env: {}, subscribe: false, requestsPerSecond: [], timings: [] },
  {
    label: 'webhooks on, 1 subscription (message.completed)',
    env: {},
    subscribe: true,
    requestsPerSecond: [],
    timings: [],
  },
  {
    // The outbox write alone: delivery left to other instances (dedicated delivery workers).
    label: '1 subscription, AGENTD_WEBHOOK_DELIVERY=off (write only)',
    env: { AGENTD_WEBHOOK_DELIVERY: 'off' },
    subscribe: true,
    requestsPerSecond: [],
    timings: [],
  },
];

async function call(variant: Variant, path: string, body: unknown) {
  const response = await fetch(`${variant.agentd!.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${variant.agentd!.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { id: string };
}

try {
  let port = 4731;
  for (const variant of variants) {
    variant.agentd = await startAgentd({ ...common, ...variant.env }, port);
    port += 1;
    if (variant.subscribe) await call(variant, '/v1/webhooks', { url: receiverUrl, events: ['message.completed'] });
    const agent = await call(variant, '/v1/agents', { name: 'Bench', bio: 'A benchmark agent.' });
    variant.messagesUrl = `${variant.agentd.url}/v1/agents/${agent.id}/messages`;
  }
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const send = (variant: Variant, offset: number) => (index: number) =>
    post(
      agent,
      variant.messagesUrl!,
      { text: 'What pays for gas?', userId: `user-${offset + index}` },
      { authorization: `Bearer ${variant.agentd!.key}` },
      '"text"',
    );
  for (const variant of variants) await load(500, concurrency, send(variant, 1_000_000));
  for (let round = 0; round < rounds; round += 1) {
    // The order rotates each round: none always runs right after another's burst of deliveries.
    for (let step = 0; step < variants.length; step += 1) {
      const variant = variants[(round + step) % variants.length]!;
      const started = performance.now();
      const timings = await load(perRound, concurrency, send(variant, round * perRound));
      variant.requestsPerSecond.push(perRound / ((performance.now() - started) / 1000));
      variant.timings.push(...timings);
    }
  }
  agent.destroy();

  const median = (values: number[]) => percentile(values, 0.5);
  const baseline = median(variants[0]!.requestsPerSecond);
  console.log(
    `node ${process.version}, ${(await import('node:os')).cpus().length} cores, ${rounds} rounds × ${perRound} messages, ${concurrency} clients\n`,
  );
  console.log('| configuration | messages/s (median of rounds) | vs off | p50 ms | p99 ms |');
  console.log('|---|---|---|---|---|');
  for (const variant of variants) {
    const throughput = median(variant.requestsPerSecond);
    const change = ((throughput / baseline - 1) * 100).toFixed(1);
    const totals = variant.timings.map((timing) => timing.totalMs);
    console.log(
      `| ${variant.label} | ${throughput.toFixed(0)} | ${variant === variants[0] ? '—' : `${change} %`} | ${percentile(totals, 0.5).toFixed(2)} | ${percentile(totals, 0.99).toFixed(2)} |`,
    );
  }
  console.log(`\nwebhook deliveries received during the run: ${received}`);
} finally {
  for (const variant of variants) await variant.agentd?.stop();
  await provider.stop();
  receiver.close();
}
