/**
 * What recording every reply as a run adds to it: builds of agentd side by
 * side, each its own process on the same fake provider (answering at once),
 * measured by the same client a message to each in turn, so that the
 * machine's drift falls on all of them alike. The first build is the baseline: the
 * build before runs, where a reply wrote no `runs` row, recorded no events
 * and had no run to finish.
 *
 *   npm run build
 *   git worktree add --detach /tmp/before-runs <commit before runs> && ln -s "$PWD/node_modules" /tmp/before-runs/
 *   (cd /tmp/before-runs && npm run build)
 *   npm run bench:run-records -- before=/tmp/before-runs/dist/main.js runs=dist/main.js
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:run-records -- …   # PostgreSQL
 *
 * Each argument is `label=path/to/main.js` (or just the path). Every round
 * sends PER_ROUND non-streamed messages and then PER_ROUND streamed ones to
 * every build, one at a time on a keep-alive connection, a message to each
 * build in turn (who goes first alternates message by message, so that a busy
 * moment of the shared machine falls on every build alike); the streamed message of a user follows its
 * non-streamed one, so each reply reads one exchange of history and stores
 * its own. Per build and kind it prints the p50 and p90 over all rounds
 * (non-streamed: to the complete reply; streamed: to the first delta and to
 * the stream's end), agentd's CPU time per message (user + system from /proc),
 * and against the baseline the difference of the p50 over all rounds with the
 * median and range of the per-round differences: the spread the machine gave.
 *
 * ROUNDS (default 20), PER_ROUND (200), WARMUP (1,000 of each kind per build).
 * PROFILE_DIR=dir: where time goes, not how long replies take (the timing itself costs):
 * each build runs with `--cpu-prof` into dir/<label>/ and with sqlite-statement-time.mjs
 * (SQLite) or pg-statement-count.mjs (PostgreSQL), and the run ends with each SQL
 * statement's time and runs per message, build by build. STATEMENTS_DIR=dir: the
 * statements only, without the CPU profiler. On PostgreSQL the runs per message are the
 * round trips, which a loaded machine cannot change.
 * On PostgreSQL (DATABASE_URL) every build gets a fresh database on that
 * server, dropped at the end. The agent has long-term memory off (MEMORY=on: on).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createFreshDatabase, type FreshDatabase } from '../test/helpers/postgres.js';
import { load, percentile, post, type Timing } from './message-overhead/client.js';
import { cpuMs, createBenchAgent, startAgentd, startFakeProvider } from './message-overhead/processes.js';

const builds = process.argv.slice(2).map((argument, index) => {
  const equals = argument.indexOf('=');
  return equals > 0
    ? { label: argument.slice(0, equals), main: path.resolve(argument.slice(equals + 1)) }
    : { label: `build ${index + 1}`, main: path.resolve(argument) };
});
if (builds.length < 2) throw new Error('usage: run-records.ts before=<main.js> runs=<main.js> [label=<main.js> …]');
const rounds = Number(process.env.ROUNDS ?? 20);
const perRound = Number(process.env.PER_ROUND ?? 200);
const warmup = Number(process.env.WARMUP ?? 1000);
const profileDirectory = process.env.PROFILE_DIR ? path.resolve(process.env.PROFILE_DIR) : undefined;
const statementsDirectory = process.env.STATEMENTS_DIR ? path.resolve(process.env.STATEMENTS_DIR) : profileDirectory;
const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;

const kinds = ['plain', 'stream'] as const;
type Kind = (typeof kinds)[number];

interface Measured {
  timings: Timing[];
  /** Per round: its p50 (complete reply, or first delta for a stream) and agentd's CPU ms per message. */
  roundP50: number[];
  roundCpu: number[];
  cpuMs: number;
}

const provider = await startFakeProvider(0, 0);

async function start(build: (typeof builds)[number], port: number) {
  const database: FreshDatabase | undefined = postgresUrl
    ? await createFreshDatabase(postgresUrl, 'agentd_bench_runs')
    : undefined;
  const profile = profileDirectory ? path.join(profileDirectory, build.label) : undefined;
  const statements = statementsDirectory ? path.join(statementsDirectory, build.label) : undefined;
  if (statements) fs.mkdirSync(statements, { recursive: true });
  const statementPreload = path.join(
    path.dirname(fileURLToPath(import.meta.url)),
    database ? 'pg-statement-count.mjs' : 'sqlite-statement-time.mjs',
  );
  const agentd = await startAgentd(
    {
      AGENTD_OPENAI_COMPATIBLE_BASE_URL: provider.url,
      AGENTD_DEFAULT_MODEL: 'openai-compatible/bench-model',
      // PostgreSQL requires the key every instance shares (SQLite keeps one in its data directory).
      ...(database ? { DATABASE_URL: database.url, AGENTD_SECRET_KEY: randomBytes(32).toString('hex') } : {}),
      ...(statements ? { SQL_TIME_FILE: path.join(statements, 'statements.json') } : {}),
    },
    port,
    [
      ...(profile ? ['--cpu-prof', '--cpu-prof-dir', profile] : []),
      ...(statements ? ['--import', statementPreload] : []),
    ],
    build.main,
  ).catch(async (error: unknown) => {
    await database?.drop();
    throw error;
  });
  const auth = { authorization: `Bearer ${agentd.key}` };
  const agentId = await createBenchAgent(agentd.url, agentd.key);
  const connection = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const send = (kind: Kind) => (user: string) =>
    post(
      connection,
      `${agentd.url}/v1/agents/${agentId}/messages`,
      { text: 'What pays for gas?', userId: user, stream: kind === 'stream' },
      auth,
      kind === 'stream' ? 'message.delta' : '"text"',
    );
  const fresh = (): Measured => ({ timings: [], roundP50: [], roundCpu: [], cpuMs: 0 });
  return {
    ...build,
    pid: agentd.process.pid!,
    send,
    measured: { plain: fresh(), stream: fresh() } as Record<Kind, Measured>,
    async stop() {
      connection.destroy();
      await agentd.stop();
      await database?.drop();
    },
  };
}

const field = (kind: Kind) => (kind === 'stream' ? 'firstTextMs' : 'totalMs');
const median = (values: number[]) => percentile(values, 0.5);
const signed = (value: number, digits = 3) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(digits)}`;

const servers: Array<Awaited<ReturnType<typeof start>>> = [];
const began = new Date();
try {
  // One after another, so that a start that fails leaves only processes the finally block stops.
  for (const [index, build] of builds.entries()) servers.push(await start(build, 3970 + index));
  for (const server of servers) {
    await load(warmup, 1, (index) => server.send('plain')(`warm-${index}`));
    await load(warmup, 1, (index) => server.send('stream')(`warm-${index}`));
  }
  for (let round = 0; round < rounds; round += 1) {
    for (const kind of kinds) {
      // One message to each build in turn (who goes first alternates), so that the builds' messages are
      // milliseconds apart and a busy moment of the machine falls on all of them alike.
      const cpuBefore = servers.map((server) => cpuMs(server.pid));
      const timings = servers.map((): Timing[] => []);
      for (let index = 0; index < perRound; index += 1) {
        const forward = (round + index) % 2 === 0;
        for (let turn = 0; turn < servers.length; turn += 1) {
          const position = forward ? turn : servers.length - 1 - turn;
          const timing = await servers[position]!.send(kind)(`user-${round}-${index}`);
          if (timing.status !== 200) throw new Error(`${servers[position]!.label} answered ${timing.status}`);
          timings[position]!.push(timing);
        }
      }
      servers.forEach((server, position) => {
        const measured = server.measured[kind];
        const cpu = cpuMs(server.pid) - cpuBefore[position]!;
        measured.cpuMs += cpu;
        measured.roundCpu.push(cpu / perRound);
        measured.roundP50.push(median(timings[position]!.map((timing) => timing[field(kind)])));
        measured.timings.push(...timings[position]!);
      });
    }
  }
  const ended = new Date();
  console.log(
    `node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ` +
      `${postgresUrl ? 'PostgreSQL' : 'SQLite'}, ${rounds} rounds × ${perRound} messages of each kind per build ` +
      `after ${warmup} of warm-up, ${began.toISOString().slice(0, 16)}–${ended.toISOString().slice(11, 16)} UTC, ` +
      `load average ${os
        .loadavg()
        .map((value) => value.toFixed(1))
        .join(' ')}\n`,
  );
  console.log(
    '| build | reply | p50 ms | p90 ms | to its end p50 ms | CPU ms per message | p50 vs baseline ms | per-round p50 difference: median [min … max] ms | CPU vs baseline ms | per-round CPU difference: median [min … max] ms |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  const baseline = servers[0]!;
  for (const kind of kinds) {
    for (const server of servers) {
      const measured = server.measured[kind];
      const values = measured.timings.map((timing) => timing[field(kind)]);
      const ends = measured.timings.map((timing) => timing.totalMs);
      const p50 = median(values);
      const cpu = measured.cpuMs / measured.timings.length;
      const base = baseline.measured[kind];
      const basePool = median(base.timings.map((timing) => timing[field(kind)]));
      const baseCpu = base.cpuMs / base.timings.length;
      const differences = measured.roundP50.map((value, round) => value - base.roundP50[round]!);
      const cpuDifferences = measured.roundCpu.map((value, round) => value - base.roundCpu[round]!);
      const spread = (values: number[]) =>
        `${signed(median(values))} [${signed(Math.min(...values))} … ${signed(Math.max(...values))}]`;
      const isBaseline = server === baseline;
      console.log(
        `| ${server.label} | ${kind === 'stream' ? 'streamed (first delta)' : 'non-streamed'} | ${p50.toFixed(3)} | ` +
          `${percentile(values, 0.9).toFixed(3)} | ${kind === 'stream' ? median(ends).toFixed(3) : '—'} | ${cpu.toFixed(3)} | ` +
          `${isBaseline ? 'baseline' : `**${signed(p50 - basePool)}**`} | ${isBaseline ? '—' : spread(differences)} | ` +
          `${isBaseline ? 'baseline' : signed(cpu - baseCpu)} | ${isBaseline ? '—' : spread(cpuDifferences)} |`,
      );
    }
  }
  if (process.env.VERBOSE) {
    for (const kind of kinds) {
      for (const server of servers) {
        console.log(
          `${server.label} ${kind} per-round p50: ${server.measured[kind].roundP50.map((value) => value.toFixed(3)).join(' ')}`,
        );
      }
    }
  }
} finally {
  for (const server of servers) await server.stop();
  await provider.stop();
}
if (statementsDirectory) printStatementTimes(statementsDirectory);

/**
 * Each statement's time per message (all messages sent to the build, warm-up included), build by build:
 * the sum, and the median run times the runs per message, which a busy machine inflates far less. On
 * SQLite the time is SQLite's own work; on PostgreSQL a run is a round trip, timed from send to answer.
 */
function printStatementTimes(directory: string) {
  const messages = 2 * (warmup + rounds * perRound);
  type Entry = { sql: string; calls: number; ms: number; medianMs: number };
  const perBuild = builds.map((build) => {
    const file = path.join(directory, build.label, 'statements.json');
    const entries = JSON.parse(fs.readFileSync(file, 'utf8')) as Entry[];
    return new Map(entries.map((entry) => [entry.sql, entry]));
  });
  const statements = [...new Set(perBuild.flatMap((entries) => [...entries.keys()]))]
    .map((sql) => ({ sql, most: Math.max(...perBuild.map((entries) => entries.get(sql)?.ms ?? 0)) }))
    // Statements of at least one run in a hundred messages: start-up's migrations are left out.
    .filter(({ sql }) => perBuild.some((entries) => (entries.get(sql)?.calls ?? 0) * 100 >= messages))
    .sort((a, b) => b.most - a.most);
  const cell = (entry: Entry | undefined) =>
    entry
      ? `${((entry.ms * 1000) / messages).toFixed(1)} / ${((entry.medianMs * 1000 * entry.calls) / messages).toFixed(1)} (${(entry.calls / messages).toFixed(2)})`
      : '—';
  console.log(
    `\n${postgresUrl ? 'PostgreSQL round-trip' : 'SQLite'} time per message in µs: the sum / the median run × runs (runs per message), ` +
      `${messages} messages per build, in ${directory}:\n| statement | ${builds.map((build) => build.label).join(' | ')} |\n|---|${builds.map(() => '---').join('|')}|`,
  );
  for (const { sql } of statements) {
    console.log(`| \`${sql.slice(0, 140)}\` | ${perBuild.map((entries) => cell(entries.get(sql))).join(' | ')} |`);
  }
  const sum = (entries: Map<string, Entry>, value: (entry: Entry) => number) =>
    [...entries.values()].reduce((total, entry) => total + value(entry), 0);
  console.log(
    `| all statements | ${perBuild
      .map(
        (entries) =>
          `${((sum(entries, (entry) => entry.ms) * 1000) / messages).toFixed(1)} / ${((sum(entries, (entry) => entry.medianMs * entry.calls) * 1000) / messages).toFixed(1)} (${(sum(entries, (entry) => entry.calls) / messages).toFixed(2)})`,
      )
      .join(' | ')} |`,
  );
}
