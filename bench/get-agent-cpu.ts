/**
 * CPU per request of `GET /v1/agents/{id}` for one or more builds, one fresh
 * process start per figure, starts alternating between the builds. Throughput
 * on this 2-core machine moves with each process start (see "Object shapes
 * and garbage collection under load" and "Fewer steps per request" in
 * bench/README.md), so builds are compared by several starts each, and by the
 * server's own CPU time per request (user + system from /proc) rather than
 * by requests per second alone.
 *
 *   npm run build && cp -r dist .before-dist   # …then change, build again
 *   node --import tsx bench/get-agent-cpu.ts .before-dist/main.js dist/main.js
 *   node --import tsx bench/get-agent-cpu.ts 'dist/main.js#--trace-deopt'   # Node flags after '#', comma-separated
 *
 * STARTS (default 4) starts per build; TRACE_DIR keeps each start's standard output; SECONDS (default 5) measured after a 2 s warm-up; 64 connections.
 * A build copied out of the checkout must sit where `node_modules` is still found (inside the checkout).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { generateApiKey } from '../src/security/api-key-secret.js';
import { benchAgentBody } from './bench-agent.js';
import { unusedPort } from '../test/helpers/network.js';
import { startServer } from '../test/helpers/server-process.js';
import { cpuMs } from './message-overhead/processes.js';

const builds = process.argv.slice(2);
if (builds.length === 0) throw new Error('name at least one build: path/to/main.js[#node-flag,…]');
const starts = Number(process.env.STARTS ?? 4);
const seconds = Number(process.env.SECONDS ?? 5);

async function measure(build: string): Promise<{ requestsPerSecond: number; cpuPerRequest: number }> {
  const [script, flags = ''] = build.split('#');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-get-cpu-'));
  const key = generateApiKey();
  const environment = {
    AGENTD_DATA_DIR: dataDir,
    AGENTD_BOOTSTRAP_KEY: key,
    AGENTD_RATE_LIMITS: 'off',
    LOG_LEVEL: 'warn',
    PORT: String(await unusedPort()),
  };
  const server = await startServer(environment, 30_000, { script, nodeFlags: flags.split(',').filter(Boolean) });
  try {
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const created = await fetch(`${server.url}/v1/agents`, {
      method: 'POST',
      headers,
      body: JSON.stringify(benchAgentBody()),
    }).then((response) => response.json() as Promise<{ id: string }>);
    const options = {
      url: `${server.url}/v1/agents/${created.id}`,
      connections: 64,
      headers: { authorization: headers.authorization },
    };
    await autocannon({ ...options, duration: 2 });
    const before = cpuMs(server.child.pid!);
    const result = await autocannon({ ...options, duration: seconds });
    const cpu = cpuMs(server.child.pid!) - before;
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${script}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return {
      requestsPerSecond: Math.round(result.requests.average),
      cpuPerRequest: (cpu * 1000) / result.requests.total,
    };
  } finally {
    await server.stop('SIGKILL');
    // TRACE_DIR: each start's output (where V8's --trace-* flags write) in a file of its own there.
    if (process.env.TRACE_DIR)
      fs.writeFileSync(path.join(process.env.TRACE_DIR, `start-${server.child.pid}.log`), server.output());
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const results = new Map<string, string[]>(builds.map((build) => [build, []]));
for (let start = 0; start < starts; start += 1) {
  for (const build of start % 2 === 0 ? builds : [...builds].reverse()) {
    const { requestsPerSecond, cpuPerRequest } = await measure(build);
    results.get(build)!.push(`${requestsPerSecond}/s ${cpuPerRequest.toFixed(1)} µs`);
    console.log(`${build}: ${requestsPerSecond} requests/s, ${cpuPerRequest.toFixed(1)} µs of CPU per request`);
  }
}
console.log(
  `\n${starts} starts each, ${seconds} s measured per start, Node ${process.version}, ${os.cpus().length} cores`,
);
for (const [build, figures] of results) console.log(`| ${build} | ${figures.join(' | ')} |`);
