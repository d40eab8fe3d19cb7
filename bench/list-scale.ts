/**
 * How listing agents scales: seeds one account with many agents (1,000,000 by
 * default) through the storage layer, then times the service verb behind
 * GET /v1/agents (listAgents) for the first page, the middle and last pages by
 * page number, and the last page by cursor, for every sort and order, at
 * limit 100. Prints the median of each as a Markdown table.
 *
 *   npm run bench:list-scale -- [--dialect sqlite|postgres|both] [--agents N] [--runs N] [--keep] [--skip-analyze]
 *
 * SQLite uses a new file in the temporary directory; PostgreSQL a new database
 * on the server of DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres),
 * dropped at the end. Both are removed when the run ends, unless --keep.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { monotonicFactory } from 'ulid';
import { loadConfig } from '../src/config.js';
import { createDependencies, type AppDeps } from '../src/dependencies.js';
import { createLogger } from '../src/logger.js';
import type { ListAgentsQueryValue } from '../src/schemas/agents.js';
import { profileFromCreate } from '../src/services/agents/agent-profile.js';
import { listAgents } from '../src/services/agents/list-agents.js';
import { scopes, type ServiceContext } from '../src/services/context.js';
import type { AgentRecord, AgentStatus } from '../src/storage/repositories/agents.js';

const { values: options } = parseArgs({
  options: {
    dialect: { type: 'string', default: 'both' },
    agents: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '25' },
    // Keep the seeded database and print where it is (to look at query plans).
    keep: { type: 'boolean', default: false },
    // Measure PostgreSQL as it is right after the load, before any ANALYZE (autovacuum off).
    'skip-analyze': { type: 'boolean', default: false },
  },
});
const agentCount = Number(options.agents);
const runs = Number(options.runs);
const limit = 100;
const serverUrl = process.env.DATABASE_URL?.startsWith('postgres')
  ? process.env.DATABASE_URL
  : 'postgres://postgres@127.0.0.1:5432/postgres';

interface Scenario {
  label: string;
  query: Omit<ListAgentsQueryValue, 'page' | 'cursor' | 'limit'>;
}

const scenarios: Scenario[] = [
  { label: 'createdAt desc', query: { sortBy: 'createdAt', order: 'desc' } },
  { label: 'createdAt asc', query: { sortBy: 'createdAt', order: 'asc' } },
  { label: 'name asc', query: { sortBy: 'name', order: 'asc' } },
  { label: 'name desc', query: { sortBy: 'name', order: 'desc' } },
  { label: 'status asc', query: { sortBy: 'status', order: 'asc' } },
  { label: 'status desc', query: { sortBy: 'status', order: 'desc' } },
  { label: 'status=inactive, name asc', query: { status: 'inactive', sortBy: 'name', order: 'asc' } },
  { label: 'status=error, createdAt desc', query: { status: 'error', sortBy: 'createdAt', order: 'desc' } },
];

const words = ['nova', 'atlas', 'echo', 'lumen', 'orbit', 'sable', 'quill', 'ember', 'delta', 'vireo', 'juno', 'pax'];

function statusFor(index: number): AgentStatus {
  const slot = index % 10;
  return slot < 7 ? 'active' : slot < 9 ? 'inactive' : 'error';
}

async function seed(deps: AppDeps, accountId: string): Promise<void> {
  const nextUlid = monotonicFactory();
  const firstCreated = Date.parse('2025-01-01T00:00:00.000Z');
  const batch = 10_000;
  const started = Date.now();
  for (let offset = 0; offset < agentCount; offset += batch) {
    const records: AgentRecord[] = [];
    for (let index = offset; index < Math.min(offset + batch, agentCount); index += 1) {
      // Thirty seconds apart, ids from the same instant: id order is creation order, as in service.
      const createdMs = firstCreated + index * 30_000;
      const id = `agt_${nextUlid(createdMs)}`;
      const name = `${words[index % words.length]} ${randomBytes(4).toString('hex')}`;
      const createdAt = new Date(createdMs).toISOString();
      records.push({
        id,
        accountId,
        name,
        status: statusFor(index),
        statusReason: null,
        deletionProtection: false,
        profile: profileFromCreate(deps.services, id, {
          name,
          bio: [`${name} answers questions about the team's services.`],
          expertise: ['operations', 'support'],
          platforms: [{ type: 'telegram', secrets: { botToken: `123456:${randomBytes(8).toString('hex')}` } }],
          metadata: { team: words[(index >> 4) % words.length]! },
        }),
        version: 1,
        createdAt,
        updatedAt: createdAt,
      });
    }
    await deps.services.repositories.agents.insertMany(records);
    if ((offset / batch) % 10 === 9)
      process.stderr.write(`  seeded ${offset + batch} agents (${Math.round((Date.now() - started) / 1000)} s)\n`);
  }
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function time(ctx: ServiceContext, query: ListAgentsQueryValue): Promise<number> {
  for (let warmup = 0; warmup < 3; warmup += 1) await listAgents({ ctx, query });
  const samples: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = process.hrtime.bigint();
    const page = await listAgents({ ctx, query });
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (page.data.length === 0) throw new Error(`empty page for ${JSON.stringify(query)}`);
  }
  return median(samples);
}

async function measure(deps: AppDeps, accountId: string): Promise<string[]> {
  const ctx: ServiceContext = {
    deps: deps.services,
    actor: { accountId, keyId: 'key_bench', scopes: new Set(scopes) },
    requestId: 'req_bench',
  };
  const rows: string[] = [];
  for (const scenario of scenarios) {
    const first = await listAgents({ ctx, query: { ...scenario.query, limit } });
    const { totalPages, total } = first.pagination;
    const beforeLast = await listAgents({ ctx, query: { ...scenario.query, limit, page: totalPages - 1 } });
    const cursor = beforeLast.pagination.nextCursor;
    if (cursor === null) throw new Error('no cursor before the last page');
    const firstMs = await time(ctx, { ...scenario.query, limit, page: 1 });
    const middleMs = await time(ctx, { ...scenario.query, limit, page: Math.ceil(totalPages / 2) });
    const lastMs = await time(ctx, { ...scenario.query, limit, page: totalPages });
    const cursorMs = await time(ctx, { limit, cursor });
    const format = (ms: number) => ms.toFixed(2);
    rows.push(
      `| ${scenario.label} | ${total} | ${format(firstMs)} | ${format(lastMs)} | ${format(cursorMs)} | ${format(middleMs)} | ${(Math.max(lastMs, cursorMs) / firstMs).toFixed(2)} |`,
    );
    process.stderr.write(`  ${rows.at(-1)}\n`);
  }
  return rows;
}

async function run(dialect: 'sqlite' | 'postgres'): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-bench-'));
  const databaseName = `agentd_bench_${randomBytes(4).toString('hex')}`;
  const admin = dialect === 'postgres' ? new pg.Client({ connectionString: serverUrl }) : null;
  let databaseUrl: string | undefined;
  if (admin) {
    await admin.connect();
    await admin.query(`create database ${databaseName}`);
    const url = new URL(serverUrl);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
  }
  const config = loadConfig({
    AGENTD_DATA_DIR: dataDir,
    AGENTD_SECRET_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const deps = await createDependencies(config, { logger: createLogger('warn') });
  try {
    const accountId = `acc_bench${randomBytes(4).toString('hex')}`;
    await deps.services.repositories.accounts.insert({
      id: accountId,
      name: 'bench',
      createdAt: new Date().toISOString(),
    });
    process.stderr.write(`${dialect}: seeding ${agentCount} agents\n`);
    const seedStarted = Date.now();
    await seed(deps, accountId);
    const seedSeconds = Math.round((Date.now() - seedStarted) / 1000);
    if (dialect === 'postgres' && !options['skip-analyze']) {
      // What autovacuum does after a load this size: statistics for the planner, and the
      // visibility map that lets deep pages skip entries with an index-only scan.
      // SQLite is measured as agentd runs it, without statistics.
      process.stderr.write('postgres: vacuum analyze agents\n');
      await sql`vacuum analyze agents`.execute(deps.database.db);
    }
    process.stderr.write(`${dialect}: measuring (median of ${runs} runs, limit ${limit})\n`);
    const rows = await measure(deps, accountId);
    const statistics =
      dialect === 'postgres'
        ? options['skip-analyze']
          ? ', no ANALYZE after the load'
          : ', VACUUM ANALYZE after the load'
        : '';
    process.stdout.write(
      `\n${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}: ${agentCount} agents in one account (seeded in ${seedSeconds} s${statistics}), ` +
        `median of ${runs} runs, milliseconds, limit ${limit}\n\n` +
        '| sort | matching | first page | last page by number | last page by cursor | middle page by number | deepest ÷ first |\n' +
        '|---|---:|---:|---:|---:|---:|---:|\n' +
        `${rows.join('\n')}\n`,
    );
  } finally {
    await deps.close();
    if (options.keep) {
      process.stderr.write(`${dialect}: kept ${databaseUrl ?? path.join(dataDir, 'agentd.sqlite')}\n`);
    } else {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (admin) await admin.query(`drop database if exists ${databaseName} with (force)`);
    }
    await admin?.end();
  }
}

const dialects =
  options.dialect === 'both' ? (['sqlite', 'postgres'] as const) : [options.dialect as 'sqlite' | 'postgres'];
process.stdout.write(
  `list-scale on ${os.cpus()[0]?.model ?? 'unknown CPU'} (${os.cpus().length} CPUs, ${Math.round(os.totalmem() / 2 ** 30)} GiB), Node ${process.version}\n`,
);
for (const dialect of dialects) await run(dialect);
