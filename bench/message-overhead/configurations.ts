/**
 * One build of agentd under several environment configurations, side by side:
 * each configuration runs as its own process (SQLite in its own data dir, rate
 * limits off) on the same fake provider, and the same client measures them in
 * alternating rounds, so the machine's drift falls on all of them alike. The
 * first configuration is the baseline the others are compared with.
 *
 *   npm run build
 *   node --import tsx bench/message-overhead/configurations.ts                       # metrics off vs on
 *   node --import tsx bench/message-overhead/configurations.ts \
 *     'off:AGENTD_AGENT_METRICS=off' 'on:AGENTD_AGENT_METRICS=on,AGENTD_METRICS_FLUSH_MS=1000'
 *
 * Each argument is `label:NAME=value,NAME=value` (an empty list after the colon is the defaults).
 * CLIENTS (default 16) messages are in flight at once; ROUNDS (10) rounds of PER_ROUND (1,000) messages
 * each per configuration after WARMUP (1,000); MODE=stream measures streamed replies to their end.
 * Prints, per configuration, messages per second over all its rounds, the median of its per-round rates,
 * the p50 and p90 latency, the change of throughput against the baseline, and agentd's CPU time per
 * message (from /proc) with its change against the baseline.
 */
import http from 'node:http';
import { load, percentile, post, type Timing } from './client.js';
import { cpuMs, startAgentd, startFakeProvider } from './processes.js';

interface Configuration {
  label: string;
  env: Record<string, string>;
}

function parseConfiguration(argument: string): Configuration {
  const colon = argument.indexOf(':');
  if (colon <= 0) throw new Error(`"${argument}" is not label:NAME=value,…`);
  const env: Record<string, string> = {};
  for (const pair of argument
    .slice(colon + 1)
    .split(',')
    .filter(Boolean)) {
    const equals = pair.indexOf('=');
    if (equals <= 0) throw new Error(`"${pair}" in "${argument}" is not NAME=value`);
    env[pair.slice(0, equals)] = pair.slice(equals + 1);
  }
  return { label: argument.slice(0, colon), env };
}

const configurations = (
  process.argv.length > 2
    ? process.argv.slice(2)
    : ['metrics off:AGENTD_AGENT_METRICS=off', 'metrics on:AGENTD_AGENT_METRICS=on']
).map(parseConfiguration);
const streamed = process.env.MODE === 'stream';
const clients = Number(process.env.CLIENTS ?? 16);
const rounds = Number(process.env.ROUNDS ?? 10);
const perRound = Number(process.env.PER_ROUND ?? 1000);
const warmup = Number(process.env.WARMUP ?? 1000);

const provider = await startFakeProvider(0, 0);

async function start(configuration: Configuration, port: number) {
  const agentd = await startAgentd(
    {
      AGENTD_OPENAI_COMPATIBLE_BASE_URL: provider.url,
      AGENTD_DEFAULT_MODEL: 'openai-compatible/bench-model',
      ...configuration.env,
    },
    port,
  );
  const auth = { authorization: `Bearer ${agentd.key}` };
  const created = await fetch(`${agentd.url}/v1/agents`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench', bio: 'A benchmark agent.', knowledge: ['Gas is paid in ETH.'] }),
  });
  const agent = (await created.json()) as { id: string };
  const connection = new http.Agent({ keepAlive: true, maxSockets: clients });
  const send = (index: number) =>
    post(
      connection,
      `${agentd.url}/v1/agents/${agent.id}/messages`,
      { text: 'What pays for gas?', userId: `user-${index}`, stream: streamed },
      auth,
      streamed ? 'message.delta' : '"text"',
    );
  return {
    configuration,
    pid: agentd.process.pid!,
    cpuMs: 0,
    send,
    timings: [] as Timing[],
    roundRates: [] as number[],
    elapsedMs: 0,
    async stop() {
      connection.destroy();
      await agentd.stop();
    },
  };
}

const servers: Array<Awaited<ReturnType<typeof start>>> = [];
try {
  // One after another, so that a start that fails leaves only processes the finally block stops.
  for (const [index, configuration] of configurations.entries()) servers.push(await start(configuration, 3960 + index));
  for (const server of servers) await load(warmup, clients, server.send);
  for (let round = 0; round < rounds; round += 1) {
    // Alternating order each round, so neither configuration always runs right after the other.
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    for (const server of order) {
      const started = performance.now();
      const cpuBefore = cpuMs(server.pid);
      const timings = await load(perRound, clients, (index) => server.send(100_000 + round * perRound + index));
      const elapsed = performance.now() - started;
      server.elapsedMs += elapsed;
      server.cpuMs += cpuMs(server.pid) - cpuBefore;
      server.roundRates.push((perRound / elapsed) * 1000);
      server.timings.push(...timings);
    }
  }
  const rateOf = (server: (typeof servers)[number]) => (server.timings.length / server.elapsedMs) * 1000;
  const baseline = rateOf(servers[0]!);
  const cpuPerMessage = (server: (typeof servers)[number]) => server.cpuMs / server.timings.length;
  const baselineCpu = cpuPerMessage(servers[0]!);
  console.log(
    `node ${process.version}, ${(await import('node:os')).cpus().length} cores, ${clients} clients, ` +
      `${rounds} rounds of ${perRound} ${streamed ? 'streamed' : 'non-streamed'} messages per configuration\n`,
  );
  console.log(
    '| configuration | messages/s | median of rounds | p50 ms | p90 ms | throughput vs baseline | agentd CPU ms per message | CPU vs baseline |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const server of servers) {
    const totals = server.timings.map((timing) => timing.totalMs);
    const rate = rateOf(server);
    console.log(
      `| ${server.configuration.label} | ${rate.toFixed(0)} | ${percentile(server.roundRates, 0.5).toFixed(0)} | ` +
        `${percentile(totals, 0.5).toFixed(2)} | ${percentile(totals, 0.9).toFixed(2)} | ` +
        `${server === servers[0] ? 'baseline' : `${(((rate - baseline) / baseline) * 100).toFixed(1)} %`} | ` +
        `${cpuPerMessage(server).toFixed(3)} | ` +
        `${server === servers[0] ? 'baseline' : `${(((cpuPerMessage(server) - baselineCpu) / baselineCpu) * 100).toFixed(1)} %`} |`,
    );
  }
} finally {
  for (const server of servers) await server.stop();
  await provider.stop();
}
