/**
 * The baseline the run engines are measured against: agentd's own claim on a run's row and its own step journal,
 * on PostgreSQL (pg) and on SQLite (better-sqlite3, a temporary file database with agentd's pragmas).
 *
 *   node --import tsx bench/run-engines/claim-baseline.ts
 *
 * Claims (CLAIMS, default 2,000 of each kind, after 200 warm-up):
 *   sweep claim — an instance takes over one run whose claim has expired:
 *     update runs set owner, token, expires_at where id = (select id … where expires_at < now
 *       order by expires_at limit 1 for update skip locked) returning id     (SQLite: no `for update skip locked`;
 *       its one writer at a time gives the same exclusion)
 *   own claim — the instance that received the request claims its new run by id (… where id = $1 and
 *     (owner is null or expires_at < now) returning id)
 *   renew — the heartbeat: update runs set expires_at where id = $1 and token = $2
 * Step journal (STEPS, default 2,000): insert into run_steps in its own transaction (begin; insert; commit),
 * and the same insert on its own (autocommit), with a small (60 B) and a 4 KiB output.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { formatSummary, freshDatabase, machineLine, summarize } from './engines.js';

const claims = Number(process.env.CLAIMS ?? 2000);
const steps = Number(process.env.STEPS ?? 2000);
const warmup = 200;
const smallOutput = JSON.stringify({ type: 'tool-result', toolCallId: 'call_1', output: { ok: true } });
const largeOutput = JSON.stringify({ type: 'text', text: randomBytes(1536).toString('base64') }); // ~4 KiB

async function timeEach(count: number, operation: (index: number) => Promise<unknown> | unknown): Promise<number[]> {
  const timings: number[] = [];
  for (let index = 0; index < warmup + count; index += 1) {
    const start = performance.now();
    await operation(index);
    if (index >= warmup) timings.push(performance.now() - start);
  }
  return timings;
}

async function postgres(): Promise<void> {
  const database = await freshDatabase('run_engines_claims');
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query(
      `create table runs (id text primary key, owner text, token text, expires_at timestamptz not null)`,
    );
    await client.query(`create index runs_expires_at on runs (expires_at)`);
    await client.query(
      `create table run_steps (run_id text not null, step integer not null, output text not null, created_at timestamptz not null default now(), primary key (run_id, step))`,
    );
    const total = warmup + claims;
    // Runs whose claim expired a minute ago: what a sweep finds after their instance died.
    await client.query(
      `insert into runs (id, owner, token, expires_at) select 'run_' || i, 'dead-instance', md5(i::text), now() - interval '1 minute' from generate_series(1, $1) as i`,
      [total * 2],
    );
    const sweep = await timeEach(claims, async () => {
      const result = await client.query({
        name: 'sweep-claim',
        text: `update runs set owner = $1, token = $2, expires_at = now() + interval '30 seconds'
               where id = (select id from runs where expires_at < now() order by expires_at limit 1 for update skip locked)
               returning id`,
        values: ['instance-b', randomUUID()],
      });
      if (result.rowCount !== 1) throw new Error('sweep claimed nothing');
    });
    console.log(formatSummary('PostgreSQL sweep claim (for update skip locked) returning', summarize(sweep)));
    // Each run is inserted first (not timed): only the claim statement is.
    const ownClaim: number[] = [];
    for (let index = 0; index < warmup + claims; index += 1) {
      const id = `own2_${index}`;
      await client.query({
        name: 'insert-run',
        text: `insert into runs (id, expires_at) values ($1, now() - interval '1 second')`,
        values: [id],
      });
      const start = performance.now();
      const result = await client.query({
        name: 'own-claim',
        text: `update runs set owner = $1, token = $2, expires_at = now() + interval '30 seconds'
               where id = $3 and (owner is null or expires_at < now()) returning id`,
        values: ['instance-a', `token-${index}`, id],
      });
      if (result.rowCount !== 1) throw new Error('own claim failed');
      if (index >= warmup) ownClaim.push(performance.now() - start);
    }
    console.log(formatSummary('PostgreSQL own claim by id returning', summarize(ownClaim)));
    const renew = await timeEach(claims, async (index) => {
      const result = await client.query({
        name: 'renew',
        text: `update runs set expires_at = now() + interval '30 seconds' where id = $1 and token = $2`,
        values: [`own2_${index % claims}`, `token-${index % claims}`],
      });
      if (result.rowCount !== 1) throw new Error('renew failed');
    });
    console.log(formatSummary('PostgreSQL renew (heartbeat) by id and token', summarize(renew)));
    for (const [label, output] of [
      ['60 B', smallOutput],
      ['4 KiB', largeOutput],
    ] as const) {
      const runId = `steps_${label}`;
      const inTransaction = await timeEach(steps, async (index) => {
        await client.query('begin');
        await client.query({
          name: 'insert-step',
          text: `insert into run_steps (run_id, step, output) values ($1, $2, $3)`,
          values: [runId, index, output],
        });
        await client.query('commit');
      });
      console.log(
        formatSummary(`PostgreSQL step: begin; insert into run_steps; commit (${label})`, summarize(inTransaction)),
      );
      const autocommit = await timeEach(steps, async (index) => {
        await client.query({
          name: 'insert-step',
          text: `insert into run_steps (run_id, step, output) values ($1, $2, $3)`,
          values: [`${runId}_auto`, index, output],
        });
      });
      console.log(
        formatSummary(`PostgreSQL step: insert into run_steps, autocommit (${label})`, summarize(autocommit)),
      );
    }
  } finally {
    await client.end();
    await database.drop();
  }
}

async function sqlite(): Promise<void> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'run-engines-sqlite-'));
  const database = new Database(path.join(directory, 'agentd.db'));
  try {
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma('busy_timeout = 5000');
    database.exec(`create table runs (id text primary key, owner text, token text, expires_at integer not null);
      create index runs_expires_at on runs (expires_at);
      create table run_steps (run_id text not null, step integer not null, output text not null, created_at integer not null, primary key (run_id, step));`);
    const total = warmup + claims;
    const insertRun = database.prepare(`insert into runs (id, owner, token, expires_at) values (?, ?, ?, ?)`);
    database.transaction(() => {
      for (let index = 0; index < total * 2; index += 1)
        insertRun.run(`run_${index}`, 'dead-instance', `t${index}`, Date.now() - 60_000 + index);
    })();
    // SQLite has no `for update skip locked`: one writer at a time already makes the claim exclusive.
    const sweepClaim = database.prepare(`update runs set owner = ?, token = ?, expires_at = ?
      where id = (select id from runs where expires_at < ? order by expires_at limit 1) returning id`);
    const sweep = await timeEach(claims, () => {
      const now = Date.now();
      const row = sweepClaim.get('instance-b', randomUUID(), now + 30_000, now);
      if (!row) throw new Error('sweep claimed nothing');
    });
    console.log(formatSummary('SQLite sweep claim update … returning', summarize(sweep)));
    const ownClaimStatement = database.prepare(
      `update runs set owner = ?, token = ?, expires_at = ? where id = ? and (owner is null or expires_at < ?) returning id`,
    );
    const insertFresh = database.prepare(`insert into runs (id, expires_at) values (?, ?)`);
    const ownClaim: number[] = [];
    for (let index = 0; index < warmup + claims; index += 1) {
      const id = `own_${index}`;
      insertFresh.run(id, Date.now() - 1000);
      const start = performance.now();
      const now = Date.now();
      const row = ownClaimStatement.get('instance-a', `token-${index}`, now + 30_000, id, now);
      if (!row) throw new Error('own claim failed');
      if (index >= warmup) ownClaim.push(performance.now() - start);
    }
    console.log(formatSummary('SQLite own claim by id returning', summarize(ownClaim)));
    const renewStatement = database.prepare(`update runs set expires_at = ? where id = ? and token = ?`);
    const renew = await timeEach(claims, (index) => {
      const result = renewStatement.run(Date.now() + 30_000, `own_${index % claims}`, `token-${index % claims}`);
      if (result.changes !== 1) throw new Error('renew failed');
    });
    console.log(formatSummary('SQLite renew (heartbeat) by id and token', summarize(renew)));
    const insertStep = database.prepare(`insert into run_steps (run_id, step, output, created_at) values (?, ?, ?, ?)`);
    for (const [label, output] of [
      ['60 B', smallOutput],
      ['4 KiB', largeOutput],
    ] as const) {
      const inTransaction = database.transaction((index: number) =>
        insertStep.run(`steps_${label}`, index, output, Date.now()),
      );
      const timings = await timeEach(steps, (index) => inTransaction(index));
      console.log(formatSummary(`SQLite step: insert into run_steps in a transaction (${label})`, summarize(timings)));
    }
  } finally {
    database.close();
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

console.log(`# claim baseline — ${machineLine()}`);
await postgres();
await sqlite();
