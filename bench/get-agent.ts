/**
 * GET /v1/agents/{id} throughput of agentd against a bare node:http server
 * doing the same work (bearer check in a Map, the same JSON), in one run on
 * the same machine, with rate limits off. Each server runs in its own process;
 * the load comes from autocannon in this process. Rounds alternate between the
 * two servers so that drift of the machine affects both alike.
 *
 *   npm run bench:get-agent -- [--seconds 10] [--connections 50] [--rounds 3]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { generateApiKey } from '../src/security/api-key-secret.js';
import { benchAgentBody } from './bench-agent.js';
import { unusedPort } from '../test/helpers/network.js';
import { startServer } from '../test/helpers/server-process.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '3' },
    'log-level': { type: 'string', default: 'warn' },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const rounds = Number(values.rounds);

async function load(url: string, key: string, duration: number) {
  const result = await autocannon({
    url,
    connections,
    duration,
    headers: { authorization: `Bearer ${key}` },
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

async function startBare(port: number, key: string, agentFile: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [path.join(import.meta.dirname ?? 'bench', 'bare-get-agent-server.mjs'), String(port), key, agentFile],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve) => child.stdout?.once('data', () => resolve()));
  return child;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-bench-'));
const key = generateApiKey();
const agentd = await startServer({
  AGENTD_DATA_DIR: dataDir,
  AGENTD_BOOTSTRAP_KEY: key,
  AGENTD_RATE_LIMITS: 'off',
  LOG_LEVEL: values['log-level'] ?? 'warn',
  PORT: String(await unusedPort()),
});

const created = await fetch(`${agentd.url}/v1/agents`, {
  method: 'POST',
  headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  body: JSON.stringify(benchAgentBody()),
});
const agent = (await created.json()) as { id: string };
const agentFile = path.join(dataDir, 'agent.json');
fs.writeFileSync(agentFile, JSON.stringify(agent));

const barePort = await unusedPort();
const bare = await startBare(barePort, key, agentFile);
const targets = {
  agentd: `${agentd.url}/v1/agents/${agent.id}`,
  bare: `http://127.0.0.1:${barePort}/v1/agents/${agent.id}`,
};

const results: Record<'agentd' | 'bare', Array<{ requestsPerSecond: number; p50: number; p99: number }>> = {
  agentd: [],
  bare: [],
};
try {
  for (const name of ['agentd', 'bare'] as const) await load(targets[name], key, 3); // warm-up (JIT, caches)
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? (['agentd', 'bare'] as const) : (['bare', 'agentd'] as const);
    for (const name of order) results[name].push(await load(targets[name], key, seconds));
  }
} finally {
  bare.kill('SIGTERM');
  await agentd.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)] as number;
const summary = (name: 'agentd' | 'bare') => ({
  requestsPerSecond: Math.round(median(results[name].map((result) => result.requestsPerSecond))),
  p50: median(results[name].map((result) => result.p50)),
  p99: median(results[name].map((result) => result.p99)),
});
const agentdSummary = summary('agentd');
const bareSummary = summary('bare');
const ratio = agentdSummary.requestsPerSecond / bareSummary.requestsPerSecond;

console.log(
  `\nGET /v1/agents/{id}, ${connections} connections, ${rounds} rounds of ${seconds} s (median), Node ${process.version}, ${os.cpus().length} cores`,
);
console.log('| server | requests/s | p50 ms | p99 ms |');
console.log('|---|---|---|---|');
console.log(`| agentd | ${agentdSummary.requestsPerSecond} | ${agentdSummary.p50} | ${agentdSummary.p99} |`);
console.log(`| bare node:http | ${bareSummary.requestsPerSecond} | ${bareSummary.p50} | ${bareSummary.p99} |`);
console.log(`\nratio agentd/bare: ${ratio.toFixed(2)} (target ≥ 0.60)`);
console.log(
  `per round: agentd ${results.agentd.map((r) => Math.round(r.requestsPerSecond)).join(', ')}; bare ${results.bare.map((r) => Math.round(r.requestsPerSecond)).join(', ')}`,
);
