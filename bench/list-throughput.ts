/**
 * Throughput of GET /v1/agents?limit=20, GET /v1/agents?limit=100 and
 * GET /v1/agents/{id} in agentd against a bare node:http server serving the
 * same JSON (bench/bare-list-server.mjs), in one run, with rate limits off.
 * On SQLite the bare server checks the key in a Map; on PostgreSQL it runs the
 * SQL agentd runs (key by hash, then the agent, or the count and the page)
 * through pg with the same pool size, so the ratio measures agentd, not the
 * database. Each server runs in its own process; the load comes from
 * autocannon in this process; rounds alternate which server goes first.
 *
 *   npm run bench:list-throughput -- [--dialect sqlite|postgres|both] [--seconds 5] [--rounds 3]
 *     [--connections 64] [--agents 120] [--targets get,list20,list100] [--profile DIR]
 *
 * PostgreSQL runs on a new database on the server of DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres), dropped at the end.
 * --profile DIR writes agentd's CPU profile (the format of node --cpu-prof) there on exit;
 * bench/profile-top.mjs summarises it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { generateApiKey } from '../src/security/api-key-secret.js';
import { benchAgentBody } from './bench-agent.js';
import { AgentRepository } from '../src/storage/repositories/agents.js';
import type { Database } from '../src/storage/schema.js';
import { unusedPort } from '../test/helpers/network.js';
import { startServer, type ServerProcess } from '../test/helpers/server-process.js';

const { values } = parseArgs({
  options: {
    dialect: { type: 'string', default: 'both' },
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '64' },
    agents: { type: 'string', default: '120' },
    targets: { type: 'string', default: 'get,list20,list100' },
    profile: { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
const agentCount = Number(values.agents);
const poolSize = 10;
const serverUrl = process.env.DATABASE_URL?.startsWith('postgres')
  ? process.env.DATABASE_URL
  : 'postgres://postgres@127.0.0.1:5432/postgres';

const targetPaths = {
  get: (agentId: string) => `/v1/agents/${agentId}`,
  list20: () => '/v1/agents?limit=20',
  list100: () => '/v1/agents?limit=100',
} as const;
type TargetName = keyof typeof targetPaths;
const serverNames = ['agentd', 'bare', 'fastify'] as const;
type ServerName = (typeof serverNames)[number];
const targets = values.targets!.split(',').filter((name): name is TargetName => name in targetPaths);
const dialects = values.dialect === 'both' ? ['sqlite', 'postgres'] : [values.dialect!];

interface RoundResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
}

async function load(url: string, key: string, duration: number): Promise<RoundResult> {
  const result = await autocannon({ url, connections, duration, headers: { authorization: `Bearer ${key}` } });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

/** The statements agentd runs for these requests on PostgreSQL, compiled by the same code. */
function postgresStatements() {
  const compiler = new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: async () => {
        throw new Error('compile only');
      },
    }),
  });
  const agentRepository = new AgentRepository(compiler, 'postgres');
  return {
    keyByHash: compiler
      .selectFrom('api_keys')
      .select(['id', 'account_id', 'scopes'])
      .where('key_hash', '=', '')
      .where('revoked_at', 'is', null)
      .compile().sql,
    agentById: compiler.selectFrom('agents').selectAll().where('id', '=', '').where('account_id', '=', '').compile()
      .sql,
    count: compiler.selectFrom('agent_counts').select('agent_count').where('account_id', '=', '').compile().sql,
    page: agentRepository.pageQuery({ accountId: '', sortBy: 'createdAt', order: 'desc', limit: 21 }).compile().sql,
  };
}

async function request<T>(server: ServerProcess, key: string, pathName: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server.url}${pathName}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${pathName}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Agents shaped like real ones: a bio, personality, knowledge, a platform secret and metadata. */
async function seed(server: ServerProcess, key: string): Promise<string> {
  let lastId = '';
  for (let index = 0; index < agentCount; index += 1) {
    const created = await request<{ id: string }>(server, key, '/v1/agents', benchAgentBody(index));
    lastId = created.id;
  }
  return lastId;
}

async function startBare(setupFile: string, framework: 'node:http' | 'fastify'): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [path.join(import.meta.dirname ?? 'bench', 'bare-list-server.mjs'), setupFile, framework],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve) => child.stdout?.once('data', () => resolve()));
  return child;
}

const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)] as number;

async function run(dialect: string): Promise<string[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-list-throughput-'));
  const key = generateApiKey();
  const databaseName = `agentd_list_throughput_${randomBytes(4).toString('hex')}`;
  const admin = dialect === 'postgres' ? new pg.Client({ connectionString: serverUrl }) : null;
  let databaseUrl: string | null = null;
  if (admin !== null) {
    await admin.connect();
    await admin.query(`create database ${databaseName}`);
    const url = new URL(serverUrl);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
  }
  const environment: Record<string, string> = {
    AGENTD_DATA_DIR: dataDir,
    AGENTD_BOOTSTRAP_KEY: key,
    AGENTD_RATE_LIMITS: 'off',
    LOG_LEVEL: 'warn',
    PORT: String(await unusedPort()),
    ...(databaseUrl === null ? {} : { DATABASE_URL: databaseUrl, AGENTD_DATABASE_POOL_SIZE: String(poolSize) }),
    ...(databaseUrl === null ? {} : { AGENTD_SECRET_KEY: randomBytes(32).toString('hex') }),
    ...(values.profile
      ? {
          NODE_OPTIONS: `--import=${path.join(import.meta.dirname ?? 'bench', 'cpu-profile-preload.mjs')}`,
          CPU_PROFILE_DIR: path.resolve(values.profile),
        }
      : {}),
  };
  let agentd: ServerProcess | null = null;
  let bare: ChildProcess | null = null;
  let fastify: ChildProcess | null = null;
  const results = new Map<string, RoundResult[]>();
  try {
    agentd = await startServer(environment);
    const server = agentd;
    const agentId = await seed(server, key);
    const agent = await request<Record<string, unknown>>(server, key, targetPaths.get(agentId));
    const pages = {
      20: await request<{ pagination: { total: number } }>(server, key, targetPaths.list20()),
      100: await request<{ pagination: { total: number } }>(server, key, targetPaths.list100()),
    };
    const setupFile = path.join(dataDir, 'bare-setup.json');
    const barePort = await unusedPort();
    const fastifyPort = await unusedPort();
    const setup = (port: number) =>
      JSON.stringify({
        port,
        key,
        accountId: 'acc_bench',
        agent,
        pages,
        ...(databaseUrl === null
          ? { mode: 'memory' }
          : { mode: 'postgres', databaseUrl, poolSize, sql: postgresStatements() }),
      });
    fs.writeFileSync(setupFile, setup(barePort));
    bare = await startBare(setupFile, 'node:http');
    fs.writeFileSync(setupFile, setup(fastifyPort));
    fastify = await startBare(setupFile, 'fastify');
    const agentdUrl = server.url;
    const urls = {
      agentd: agentdUrl,
      bare: `http://127.0.0.1:${barePort}`,
      fastify: `http://127.0.0.1:${fastifyPort}`,
    };
    const urlOf = (which: ServerName, target: TargetName) => `${urls[which]}${targetPaths[target](agentId)}`;

    for (const target of targets) for (const server of serverNames) await load(urlOf(server, target), key, 2); // warm-up
    for (let round = 0; round < rounds; round += 1) {
      // Each round starts with a different server, so none is always measured first or last.
      const order = serverNames.map((_, index) => serverNames[(index + round) % serverNames.length]!);
      for (const target of targets) {
        for (const server of order) {
          const label = `${target}:${server}`;
          const result = await load(urlOf(server, target), key, seconds);
          results.set(label, [...(results.get(label) ?? []), result]);
          process.stderr.write(`  ${dialect} round ${round + 1} ${label}: ${Math.round(result.requestsPerSecond)}/s\n`);
        }
      }
    }
  } finally {
    bare?.kill('SIGTERM');
    fastify?.kill('SIGTERM');
    await agentd?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (admin !== null) {
      await admin.query(`drop database if exists ${databaseName} with (force)`);
      await admin.end();
    }
  }

  const lines = [
    `\n${dialect}: ${connections} connections, ${rounds} rounds of ${seconds} s (median), ${agentCount} agents, Node ${process.version}, ${os.cpus().length} cores`,
    '| request | agentd requests/s | p50 / p99 ms | bare requests/s | Fastify floor requests/s | agentd / bare | per round: median (lowest–highest) | Fastify floor / bare | agentd / Fastify floor | rounds agentd; bare; Fastify |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  const summary = (each: RoundResult[]) => ({
    requestsPerSecond: Math.round(median(each.map((result) => result.requestsPerSecond))),
    p50: median(each.map((result) => result.p50)),
    p99: median(each.map((result) => result.p99)),
  });
  const perRound = (each: RoundResult[]) => each.map((result) => Math.round(result.requestsPerSecond)).join(', ');
  // Each round measures the servers back to back, so its ratio shares that moment's load on the machine.
  const roundRatios = (over: RoundResult[], under: RoundResult[]) =>
    over.map((result, index) => result.requestsPerSecond / under[index]!.requestsPerSecond);
  for (const target of targets) {
    const [agentd, bare, fastify] = serverNames.map((server) => results.get(`${target}:${server}`)!) as [
      RoundResult[],
      RoundResult[],
      RoundResult[],
    ];
    const [agentdSummary, bareSummary, fastifySummary] = [agentd, bare, fastify].map(summary) as [
      ReturnType<typeof summary>,
      ReturnType<typeof summary>,
      ReturnType<typeof summary>,
    ];
    const ratios = roundRatios(agentd, bare);
    const spread = `${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`;
    lines.push(
      `| ${targetPaths[target]('{id}')} | ${agentdSummary.requestsPerSecond} | ${agentdSummary.p50} / ${agentdSummary.p99} | ` +
        `${bareSummary.requestsPerSecond} | ${fastifySummary.requestsPerSecond} | ` +
        `**${(agentdSummary.requestsPerSecond / bareSummary.requestsPerSecond).toFixed(2)}** | ${spread} | ` +
        `${median(roundRatios(fastify, bare)).toFixed(2)} | ${median(roundRatios(agentd, fastify)).toFixed(2)} | ` +
        `${perRound(agentd)}; ${perRound(bare)}; ${perRound(fastify)} |`,
    );
  }
  return lines;
}

for (const dialect of dialects) console.log((await run(dialect)).join('\n'));
