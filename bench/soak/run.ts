/**
 * Mixed traffic against a built agentd for a given time, with its memory,
 * event-loop delay, active handles and file descriptors sampled from inside
 * the server all along.
 *
 *   npm run build && npm run bench:soak -- --minutes 30
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:soak -- --minutes 30 --database postgres
 *
 * Options: --minutes (30), --database sqlite|postgres (sqlite), --clients (4),
 * --pause-ms between one client's operations (10), --warm-up share of the time (0.2),
 * --sample-seconds (5), --max-rss-growth percent (5), --out directory for the samples and the summary.
 *
 * Three processes: the fake OpenAI-compatible provider, agentd (`dist/main.js
 * serve` on a fresh data dir, or a PostgreSQL database created for the run and
 * dropped after it; rate limits off) with bench/soak/sampler.mjs loaded by
 * `--import`, and this one, whose clients send the traffic. Exits 1 when RSS
 * grew more than the limit after warm-up, or on any 5xx but the contract's
 * 503s, or on any answer the contract does not allow.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { unusedPort } from '../../test/helpers/network.js';
import { startAgentd, startFakeProvider, type Started } from '../message-overhead/processes.js';
import { readSamples, waitForSamples } from './samples-file.js';
import { openSoakDatabase, type DatabaseKind, type SoakDatabase } from './soak-database.js';
import { summarize } from './soak-summary.js';
import { failuresOf } from './soak-verdict.js';
import { runTrafficClient } from './traffic-client.js';
import { TrafficTally } from './traffic-tally.js';

const { values: options } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    database: { type: 'string', default: 'sqlite' },
    clients: { type: 'string', default: '4' },
    'pause-ms': { type: 'string', default: '10' },
    'warm-up': { type: 'string', default: '0.2' },
    'sample-seconds': { type: 'string', default: '5' },
    'max-rss-growth': { type: 'string', default: '5' },
    out: { type: 'string' },
    // Each sample after a full garbage collection (node --expose-gc): memory that is still held, not what the
    // collector has yet to take back, so a slow leak shows as a trend rather than hiding in the heap's swings.
    gc: { type: 'boolean', default: false },
  },
});
const minutes = Number(options.minutes);
const databaseKind = options.database as DatabaseKind;
if (!['sqlite', 'postgres'].includes(databaseKind)) throw new Error('--database is sqlite or postgres');
const sampleMs = Number(options['sample-seconds']) * 1000;
const maxRssGrowth = Number(options['max-rss-growth']);
const outDirectory =
  options.out ?? fs.mkdtempSync(path.join(os.tmpdir(), `agentd-soak-${new Date().toISOString().slice(0, 16)}-`));
fs.mkdirSync(outDirectory, { recursive: true });
const samplesFile = path.join(outDirectory, 'samples.jsonl');
fs.rmSync(samplesFile, { force: true });
const samplerUrl = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), 'sampler.mjs')).href;
const log = (line: string) => console.log(`${new Date().toISOString()} ${line}`);

let database: SoakDatabase | null = null;
let provider: Started | null = null;
let agentd: (Started & { key: string }) | null = null;
const tally = new TrafficTally();
try {
  database = await openSoakDatabase(databaseKind, process.env.DATABASE_URL);
  // Words 2 ms apart: streams last long enough for a client to hang up in the middle of one.
  provider = await startFakeProvider(2, 30);
  agentd = await startAgentd(
    {
      ...database.serverEnvironment,
      AGENTD_OPENAI_COMPATIBLE_BASE_URL: provider.url,
      AGENTD_BUILTIN_WORD_DELAY_MS: '2',
      SOAK_SAMPLES_FILE: samplesFile,
      SOAK_SAMPLE_INTERVAL_MS: String(sampleMs),
      ...(options.gc ? { SOAK_COLLECT_BEFORE_SAMPLE: '1' } : {}),
    },
    await unusedPort(),
    [...(options.gc ? ['--expose-gc'] : []), '--import', samplerUrl],
  );
  log(`agentd ${agentd.process.pid} at ${agentd.url} on ${databaseKind}; samples in ${samplesFile}`);
  // Two samples of the idle server (the first is taken before the app loads) to compare the end with.
  await waitForSamples(samplesFile, 3, sampleMs * 5);

  const trafficStartedAt = Date.now();
  const until = trafficStartedAt + minutes * 60_000;
  const progress = setInterval(() => {
    const last = readSamples(samplesFile).at(-1);
    log(
      `${tally.total} requests, ${tally.problemCount} problems; rss ${((last?.rss ?? 0) / 1_048_576).toFixed(1)} MiB, ` +
        `heap ${((last?.heapUsed ?? 0) / 1_048_576).toFixed(1)} MiB, ${last?.activeResources} resources, ${last?.fileDescriptors} fds`,
    );
  }, 60_000);
  const trafficOptions = {
    baseUrl: agentd.url,
    key: agentd.key,
    providerModel: { provider: 'openai-compatible', name: 'soak-model' },
    tally,
    until,
    pauseMs: Number(options['pause-ms']),
  };
  await Promise.all(
    Array.from({ length: Number(options.clients) }, (_, index) => runTrafficClient(trafficOptions, index)),
  );
  clearInterval(progress);
  const trafficEndedAt = Date.now();
  log(`traffic ended: ${tally.total} requests`);
  // Idle again: the clients' keep-alive connections close within seconds; three samples see the server after that.
  const sampledBefore = readSamples(samplesFile).length;
  await waitForSamples(samplesFile, sampledBefore + 3, sampleMs * 6);

  const summary = summarize(
    readSamples(samplesFile),
    { trafficStartedAt, trafficEndedAt, warmUpFraction: Number(options['warm-up']) },
    tally.summary(),
  );
  const failures = failuresOf(summary, maxRssGrowth);
  const report = {
    command: process.argv.slice(2).join(' '),
    database: databaseKind,
    minutes,
    warmUpFraction: Number(options['warm-up']),
    maxRssGrowthPercent: maxRssGrowth,
    ...summary,
    failures,
  };
  fs.writeFileSync(path.join(outDirectory, 'summary.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report, null, 2));
  log(failures.length === 0 ? 'soak passed' : `soak failed: ${failures.join('; ')}`);
  process.exitCode = failures.length === 0 ? 0 : 1;
} finally {
  await agentd?.stop();
  await provider?.stop();
  await database?.remove();
}
