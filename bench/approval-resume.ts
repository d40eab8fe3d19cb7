/**
 * How long a paused run takes to go on after its approval, without the model:
 * the time from sending POST /v1/agents/{id}/approvals/{approvalId} to the
 * first event of the run that resumes the reply (`message.started`), and to
 * that run's end (the approved tool, a no-op, and the builtin model's answer,
 * which is a pure function of the prompt: no model time).
 *
 * In process (app.inject, no sockets), one approval at a time, SQLite by
 * default or PostgreSQL with --postgres (DATABASE_URL, a database of its own is
 * created and dropped). On PostgreSQL it also counts the queries sent (each a
 * round trip) from the decision to the first event, and lists them in the
 * order of one round: what a loaded machine cannot change. Results: bench/README.md.
 *
 *   npm run bench:approval-resume
 *   npm run bench:approval-resume -- --rounds 300 --postgres
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Type } from '@sinclair/typebox';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDependencies } from '../src/dependencies.js';
import { createLogger } from '../src/logger.js';
import type { PluginDefinition } from '../src/plugins/plugin.js';
import { generateApiKey } from '../src/security/api-key-secret.js';
import { bootstrap } from '../src/services/api-keys.js';

const { values: options } = parseArgs({
  options: {
    rounds: { type: 'string', default: '200' },
    warmup: { type: 'string', default: '20' },
    postgres: { type: 'boolean', default: false },
  },
});
const rounds = Number(options.rounds);
const warmup = Number(options.warmup);

/** A tool that needs approval and does nothing: what is measured is agentd's work around it. */
const gatePlugin: PluginDefinition = {
  name: 'gate',
  description: 'A no-op tool behind an approval.',
  configSchema: Type.Object({}, { additionalProperties: false }),
  secretsSchema: Type.Object({}, { additionalProperties: false }),
  async open() {
    return {
      tools: [
        {
          name: 'open_gate',
          description: 'Opens the gate.',
          inputSchema: { type: 'object', properties: {} },
          execute: async () => ({ opened: true }),
        },
      ],
    };
  },
};

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] as number;
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-bench-approval-'));
  const serverUrl = process.env.DATABASE_URL;
  if (options.postgres && !serverUrl?.startsWith('postgres')) throw new Error('--postgres needs DATABASE_URL');
  const databaseName = `agentd_bench_approval_${randomBytes(4).toString('hex')}`;
  let databaseUrl: string | undefined;
  if (options.postgres) {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${databaseName}`);
    await admin.end();
    const url = new URL(serverUrl as string);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
  }
  const bootstrapKey = generateApiKey();
  const config = loadConfig({
    AGENTD_DATA_DIR: dataDir,
    AGENTD_SECRET_KEY: randomBytes(32).toString('hex'),
    AGENTD_BOOTSTRAP_KEY: bootstrapKey,
    AGENTD_RATE_LIMITS: 'off',
    AGENTD_BUILTIN_WORD_DELAY_MS: '0',
    LOG_LEVEL: 'warn',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const deps = await createDependencies(config, { logger: createLogger('warn'), extraPlugins: [gatePlugin] });
  await bootstrap({ deps: deps.services, bootstrapKey });
  const app = await buildApp({ config, deps });
  const headers = { authorization: `Bearer ${bootstrapKey}` };

  // Every query sent while `window` is open: its SQL's first words and when it was sent and answered.
  type Sent = { sql: string; sentAt: number; answeredAt: number };
  let window: Sent[] | null = null;
  const query = pg.Client.prototype.query as (...parameters: unknown[]) => unknown;
  pg.Client.prototype.query = function counted(this: pg.Client, ...parameters: unknown[]) {
    const result = query.apply(this, parameters);
    const config = parameters[0];
    const text = typeof config === 'string' ? config : (config as { text?: unknown } | undefined)?.text;
    if (window !== null && typeof text === 'string' && result instanceof Promise) {
      const sent: Sent = { sql: text.replace(/\s+/g, ' ').slice(0, 90), sentAt: performance.now(), answeredAt: 0 };
      window.push(sent);
      const answered = () => (sent.answeredAt = performance.now());
      result.then(answered, answered);
    }
    return result;
  } as typeof pg.Client.prototype.query;

  // When each run's first event is recorded, by run id.
  const firstEventAt = new Map<string, number>();
  const runtime = deps.services.runs;
  const begin = runtime.begin.bind(runtime);
  runtime.begin = (run, stored) => {
    const log = begin(run, stored);
    let seen = false;
    const unfollow = log.follow(0, (event) => {
      if (seen || event === null) return;
      seen = true;
      firstEventAt.set(run.id, performance.now());
      queueMicrotask(() => unfollow?.());
    });
    return log;
  };

  try {
    const created = await app.inject({
      method: 'POST',
      url: '/v1/agents',
      headers,
      payload: { name: 'Gatekeeper', plugins: [{ name: 'gate', approval: { tools: ['open_gate'] } }] },
    });
    if (created.statusCode !== 201) throw new Error(created.body);
    const agentId = created.json().id as string;
    const toFirstEvent: number[] = [];
    const toEnd: number[] = [];
    /** Per round: queries sent before the first event, and the last round's list. */
    const queriesBefore: number[] = [];
    let lastRound: Sent[] = [];
    for (let round = 0; round < warmup + rounds; round += 1) {
      const paused = await app.inject({
        method: 'POST',
        url: `/v1/agents/${agentId}/messages`,
        headers,
        payload: { text: 'Open it.\n/tool open_gate {}', userId: `user${round % 20}` },
      });
      const reply = paused.json();
      if (reply.finishReason !== 'approval_required') throw new Error(paused.body);
      const approvalId = reply.approvals[0].approvalId as string;
      window = [];
      const sent = performance.now();
      const decided = await app.inject({
        method: 'POST',
        url: `/v1/agents/${agentId}/approvals/${approvalId}`,
        headers,
        payload: { decision: 'approve' },
      });
      if (decided.statusCode !== 200) throw new Error(decided.body);
      const runId = decided.json().resumedRunId as string;
      // Its end: the run leaves this instance's live runs once its outcome is stored.
      while (!firstEventAt.has(runId) || runtime.live.has(runId)) await new Promise((resolve) => setImmediate(resolve));
      const ended = performance.now();
      const first = firstEventAt.get(runId) as number;
      if (round >= warmup) {
        toFirstEvent.push(first - sent);
        toEnd.push(ended - sent);
        queriesBefore.push(window.filter((query) => query.sentAt < first).length);
        lastRound = window.map((query) => ({
          ...query,
          sentAt: query.sentAt - sent,
          answeredAt: query.answeredAt - sent,
        }));
        lastRound.push({ sql: '(first event of the resumed run)', sentAt: first - sent, answeredAt: first - sent });
      }
      window = null;
      firstEventAt.delete(runId);
    }
    const summary = (samples: number[]) => {
      const sorted = [...samples].sort((a, b) => a - b);
      return `p50 ${percentile(sorted, 0.5).toFixed(2)} ms, p90 ${percentile(sorted, 0.9).toFixed(2)} ms, p99 ${percentile(sorted, 0.99).toFixed(2)} ms`;
    };
    process.stdout.write(
      `${options.postgres ? 'PostgreSQL' : 'SQLite'}, ${rounds} approvals (after ${warmup} warm-up), one at a time:\n` +
        `  decision sent → first event of the resumed run: ${summary(toFirstEvent)}\n` +
        `  decision sent → resumed run ended (tool + builtin model): ${summary(toEnd)}\n`,
    );
    if (options.postgres) {
      const sorted = [...queriesBefore].sort((a, b) => a - b);
      process.stdout.write(
        `  queries sent before the first event: median ${percentile(sorted, 0.5)} [${sorted[0]} … ${sorted.at(-1)}]\n` +
          `  the last round's queries (ms after the decision was sent: sent → answered):\n` +
          lastRound
            .sort((a, b) => a.sentAt - b.sentAt)
            .map((query) => `    ${query.sentAt.toFixed(2)} → ${query.answeredAt.toFixed(2)}  ${query.sql}\n`)
            .join(''),
      );
    }
  } finally {
    await app.close();
    await deps.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (options.postgres) {
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${databaseName}`);
      await admin.end();
    }
  }
}

await main();
