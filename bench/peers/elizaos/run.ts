/**
 * agentd beside the ElizaOS server (@elizaos/server 1.7.2), in one run:
 * get one agent, list the agents, create an agent.
 *
 *   npm run build && (cd bench/peers/elizaos && npm install) && npm run bench:peer-elizaos -- [--seconds 5] [--rounds 3]
 *     [--connections 64] [--agents 120]
 *
 * Each server runs on its own default database in a temporary directory:
 * agentd on SQLite (`dist/main.js serve`, rate limits off), ElizaOS on PGlite
 * (bench/peers/elizaos/server.mjs, its per-IP API limit lifted, see there).
 * Both check a key on every request (agentd a bearer key by its hash in the
 * database, ElizaOS the X-API-KEY header against ELIZA_SERVER_AUTH_TOKEN). Both
 * get the same agents through their own API: a bio, a personality (ElizaOS:
 * adjectives and style), knowledge, a platform secret and metadata. The load
 * comes from autocannon in this process; rounds alternate which server goes
 * first; the figures are medians of the rounds, with each round's ratio.
 *
 * The requests are each server's nearest equivalents, not the same work:
 * ElizaOS lists every agent of the server in one answer (a summary of each,
 * no paging), agentd a page of 20 or 100 full agents; creates send a new name
 * each time (ElizaOS derives an agent's id from its name).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { generateApiKey } from '../../../src/security/api-key-secret.js';
import { unusedPort } from '../../../test/helpers/network.js';
import { startServer, type ServerProcess } from '../../../test/helpers/server-process.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '64' },
    agents: { type: 'string', default: '120' },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
const agentCount = Number(values.agents);
const here = import.meta.dirname ?? 'bench/peers/elizaos';

interface Server {
  name: 'agentd' | 'elizaos';
  url: string;
  headers: Record<string, string>;
  paths: { get: string; list: string; list100?: string; create: string };
  createBody(index: number): unknown;
}

interface RoundResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
}

const person = (index: number) => ({
  name: `Ava ${index}`,
  bio: ['Ava is a DeFi research assistant.', 'She explains risks before returns.'],
  traits: ['curious', 'precise'],
  style: ['short sentences'],
  knowledge: ['Gas is paid in ETH.', 'Fees rise with network demand.'],
  secret: `123456:${index}ABCDEFGH4f2a`,
});

function agentdBody(index: number, prefix = '') {
  const agent = person(index);
  return {
    name: `${prefix}${agent.name}`,
    bio: agent.bio,
    personality: { traits: agent.traits, style: agent.style, tone: 'friendly' },
    knowledge: agent.knowledge,
    // Disabled: the same stored shape (a secret to mask), but no connector polling Telegram during the run.
    platforms: [
      { type: 'telegram', enabled: false, settings: { pollTimeoutSeconds: 25 }, secrets: { botToken: agent.secret } },
    ],
    metadata: { team: 'research' },
  };
}

function elizaBody(index: number, prefix = '') {
  const agent = person(index);
  return {
    characterJson: {
      name: `${prefix}${agent.name}`,
      bio: agent.bio,
      adjectives: agent.traits,
      style: { all: agent.style, chat: [], post: [] },
      knowledge: agent.knowledge,
      topics: ['defi'],
      settings: { secrets: { TELEGRAM_BOT_TOKEN: agent.secret } },
      plugins: [],
    },
  };
}

async function send(server: Server, method: string, pathName: string, body?: unknown): Promise<any> {
  const response = await fetch(`${server.url}${pathName}`, {
    method,
    headers: { ...server.headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${server.name} ${method} ${pathName}: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

async function load(server: Server, target: 'get' | 'list' | 'list100' | 'create', duration: number) {
  let created = 0;
  const run = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const options: autocannon.Options =
    target === 'create'
      ? {
          url: server.url,
          connections,
          duration,
          requests: [
            {
              method: 'POST',
              path: server.paths.create,
              headers: { ...server.headers, 'content-type': 'application/json' },
              // A new name for every request: ElizaOS makes an agent's id from its name.
              setupRequest: (request) => ({
                ...request,
                body: JSON.stringify(server.createBody(agentCount + (created += 1))).replace(
                  /"name":"Ava /,
                  `"name":"Ava ${run}-`,
                ),
              }),
            },
          ],
        }
      : { url: `${server.url}${server.paths[target]}`, connections, duration, headers: server.headers };
  const result = await autocannon(options);
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${server.name} ${target}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

async function startElizaos(dataDir: string, key: string): Promise<{ process: ChildProcess; url: string }> {
  const port = await unusedPort();
  const child = spawn(process.execPath, [path.join(here, 'server.mjs')], {
    cwd: here,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dataDir,
      PORT: String(port),
      DATA_DIR: path.join(dataDir, 'pglite'),
      ELIZA_SERVER_AUTH_TOKEN: key,
      LOG_LEVEL: 'warn',
      ELIZA_UI_ENABLE: 'false',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  for await (const chunk of child.stdout!) {
    output += String(chunk);
    if (output.includes(`listening on ${port}`)) break;
  }
  if (!output.includes(`listening on ${port}`)) throw new Error(`ElizaOS did not start:\n${output}`);
  child.stdout!.resume();
  return { process: child, url: `http://127.0.0.1:${port}` };
}

const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)] as number;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-peer-elizaos-'));
const agentdKey = generateApiKey();
const elizaKey = randomBytes(24).toString('hex');
let agentd: ServerProcess | null = null;
let eliza: { process: ChildProcess; url: string } | null = null;
try {
  agentd = await startServer({
    AGENTD_DATA_DIR: path.join(dataDir, 'agentd'),
    AGENTD_BOOTSTRAP_KEY: agentdKey,
    AGENTD_RATE_LIMITS: 'off',
    LOG_LEVEL: 'warn',
    // At `warn` the server does not log where it listens, so it is told.
    PORT: String(await unusedPort()),
  });
  eliza = await startElizaos(dataDir, elizaKey);
  const servers: Server[] = [
    {
      name: 'agentd',
      url: agentd.url,
      headers: { authorization: `Bearer ${agentdKey}` },
      paths: { get: '', list: '/v1/agents?limit=20', list100: '/v1/agents?limit=100', create: '/v1/agents' },
      createBody: (index) => agentdBody(index),
    },
    {
      name: 'elizaos',
      url: eliza.url,
      headers: { 'x-api-key': elizaKey },
      paths: { get: '', list: '/api/agents', create: '/api/agents' },
      createBody: (index) => elizaBody(index),
    },
  ];
  for (const server of servers) {
    let lastId = '';
    for (let index = 0; index < agentCount; index += 1) {
      const created = await send(
        server,
        'POST',
        server.paths.create,
        server.name === 'agentd' ? agentdBody(index) : elizaBody(index),
      );
      lastId = server.name === 'agentd' ? created.id : created.data.id;
    }
    server.paths.get = server.name === 'agentd' ? `/v1/agents/${lastId}` : `/api/agents/${lastId}`;
    const listed = await send(server, 'GET', server.paths.list);
    const listedCount = server.name === 'agentd' ? listed.data.length : listed.data.agents.length;
    process.stderr.write(`${server.name}: ${agentCount} agents created, the list answers ${listedCount}\n`);
  }

  const targets = ['get', 'list', 'create'] as const;
  const results = new Map<string, RoundResult[]>();
  for (const target of targets) for (const server of servers) await load(server, target, 2); // warm-up
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    for (const target of targets) {
      for (const server of order) {
        const result = await load(server, target, seconds);
        const label = `${target}:${server.name}`;
        results.set(label, [...(results.get(label) ?? []), result]);
        process.stderr.write(`  round ${round + 1} ${label}: ${Math.round(result.requestsPerSecond)}/s\n`);
      }
      if (target === 'list') {
        const result = await load(servers[0]!, 'list100', seconds);
        results.set('list100:agentd', [...(results.get('list100:agentd') ?? []), result]);
        process.stderr.write(`  round ${round + 1} list100:agentd: ${Math.round(result.requestsPerSecond)}/s\n`);
      }
    }
  }

  const lines = [
    `\n${connections} connections, ${rounds} rounds of ${seconds} s (median), ${agentCount} agents each, Node ${process.version}, ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')}`,
    '| request | agentd requests/s | p50 / p99 ms | ElizaOS requests/s | p50 / p99 ms | agentd / ElizaOS | per round | rounds agentd; ElizaOS |',
    '|---|---|---|---|---|---|---|---|',
  ];
  const names = {
    get: ['GET /v1/agents/{id}', 'GET /api/agents/{id}'],
    list: ['GET /v1/agents?limit=20', 'GET /api/agents (all 120)'],
    create: ['POST /v1/agents', 'POST /api/agents'],
  };
  for (const target of targets) {
    const ours = results.get(`${target}:agentd`)!;
    const theirs = results.get(`${target}:elizaos`)!;
    const summary = (each: RoundResult[]) => ({
      requestsPerSecond: Math.round(median(each.map((result) => result.requestsPerSecond))),
      p50: median(each.map((result) => result.p50)),
      p99: median(each.map((result) => result.p99)),
    });
    const oursSummary = summary(ours);
    const theirsSummary = summary(theirs);
    // A round in which the peer completed nothing has no ratio.
    const ratioOf = (mine: number, peer: number) => (peer > 0 ? (mine / peer).toFixed(1) : '—');
    const ratios = ours.map((result, index) => ratioOf(result.requestsPerSecond, theirs[index]!.requestsPerSecond));
    lines.push(
      `| ${names[target][0]} vs ${names[target][1]} | ${oursSummary.requestsPerSecond} | ${oursSummary.p50} / ${oursSummary.p99} | ` +
        `${theirsSummary.requestsPerSecond} | ${theirsSummary.p50} / ${theirsSummary.p99} | ` +
        `**${ratioOf(oursSummary.requestsPerSecond, theirsSummary.requestsPerSecond)}×** | ${ratios.join(', ')} | ` +
        `${ours.map((result) => Math.round(result.requestsPerSecond)).join(', ')}; ${theirs.map((result) => Math.round(result.requestsPerSecond)).join(', ')} |`,
    );
  }
  const list100 = results.get('list100:agentd')!;
  lines.push(
    `\nagentd GET /v1/agents?limit=100: ${Math.round(median(list100.map((result) => result.requestsPerSecond)))} requests/s ` +
      `(rounds ${list100.map((result) => Math.round(result.requestsPerSecond)).join(', ')})`,
  );
  console.log(lines.join('\n'));
} finally {
  if (eliza !== null && eliza.process.exitCode === null) {
    eliza.process.kill('SIGTERM');
    await Promise.race([once(eliza.process, 'exit'), new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (eliza.process.exitCode === null) eliza.process.kill('SIGKILL');
  }
  await agentd?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
