import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { runCampaign } from './campaign.js';
import { startFuzzTarget } from './fuzz-target.js';
import { fetchOperations } from './openapi-operations.js';
import { anyRequest } from './request-arbitrary.js';
import {
  describeGrowth,
  growthOf,
  heapSnapshot,
  measureMemory,
  mebibytes,
  probeNodeFlags,
  type ServerMemory,
} from './server-memory.js';

/**
 * The long fuzzing pass: `npm run fuzz -- --requests 100000 [--seed N]
 * [--concurrency 8] [--replay block:index] [--warmup 5000]`. Prints the
 * responses by status and every failure with the arguments that send that
 * request again; exits non-zero when any answer broke the invariant, the
 * server stopped serving, or its memory did not come back to its baseline.
 *
 * Memory: the server's resident set after a full garbage collection, less
 * V8's young generation (server-memory.ts, from a probe loaded into the
 * server; why that measure is there) is read after a
 * warm-up pass (code loaded and compiled, caches filled) and an idle pause,
 * and again after the run and the same pause. Growth beyond `--memory-slack`
 * (25 %) fails the run: what a long run leaves behind is what a leak looks
 * like. Every 10,000 requests the heap in use after a collection is printed,
 * so growth that keeps going shows as a trend.
 */

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '100000' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000_000) },
    concurrency: { type: 'string', default: '8' },
    replay: { type: 'string' },
    warmup: { type: 'string', default: '5000' },
    'memory-slack': { type: 'string', default: '0.25' },
    // Where the memory went over time: the soak's sampler in the server (bench/soak/sampler.mjs), one JSON
    // line every 5 s (RSS by kind of mapping, V8's spaces), for bench/soak/memory-breakdown.mjs.
    samples: { type: 'string' },
    // A heap snapshot of the server at the baseline and after the run, into this directory, for
    // bench/soak/heap-diff.mjs (each snapshot leaves the server's RSS larger: compare heaps, not RSS, then).
    'heap-snapshots': { type: 'string' },
    // NAME=VALUE for the server's environment, e.g. MALLOC_ARENA_MAX=2; repeatable.
    'server-env': { type: 'string', multiple: true, default: [] },
  },
});
const seed = Number(values.seed);
const replayMatch = values.replay ? /^(\d+):(\d+)$/.exec(values.replay) : null;
if (values.replay && !replayMatch) throw new Error('--replay takes block:index, as printed with a failure');
const memorySlack = Number(values['memory-slack']);
const snapshotDirectory = values['heap-snapshots'];

const samplerUrl = pathToFileURL(fileURLToPath(new URL('../../bench/soak/sampler.mjs', import.meta.url))).href;
const target = await startFuzzTarget({
  nodeFlags: [
    ...probeNodeFlags,
    ...(values.samples ? ['--import', samplerUrl] : []),
    ...(snapshotDirectory ? ['--heapsnapshot-signal=SIGUSR2'] : []),
    ...(process.env.NODE_ARGS ? process.env.NODE_ARGS.split(' ') : []),
  ],
  env: {
    ...Object.fromEntries(
      values['server-env'].map((pair) => {
        const at = pair.indexOf('=');
        if (at < 1) throw new Error(`--server-env takes NAME=VALUE, not ${pair}`);
        return [pair.slice(0, at), pair.slice(at + 1)];
      }),
    ),
    ...(values.samples ? { SOAK_SAMPLES_FILE: path.resolve(values.samples), SOAK_SAMPLE_INTERVAL_MS: '5000' } : {}),
  },
  ipc: true,
});
const child = target.server.child;
let exitCode = 0;
try {
  const operations = await fetchOperations(target.server.url);
  console.log(
    `seed ${seed}; ${operations.length} operations: ${operations.map((operation) => operation.label).join(', ')}`,
  );
  const requests = Number(values.requests);
  const warmup = replayMatch ? 0 : Number(values.warmup);
  if (warmup > 0) {
    await runCampaign({
      target,
      arbitrary: anyRequest(operations),
      seed: seed + 1,
      requests: warmup,
      concurrency: Number(values.concurrency),
    });
  }
  const baseline = warmup > 0 ? await memoryAfterIdle() : null;
  if (snapshotDirectory) console.log(`heap snapshot: ${await snapshot('baseline')}`);
  let measuring = Promise.resolve();
  const result = await runCampaign({
    target,
    arbitrary: anyRequest(operations),
    seed,
    requests,
    concurrency: Number(values.concurrency),
    ...(replayMatch ? { replay: { block: Number(replayMatch[1]), index: Number(replayMatch[2]) } } : {}),
    onProgress: (sent) => {
      if (sent % 10_000 !== 0) return;
      // Measured under load (no idle pause): the live heap is comparable between lines, the RSS less so.
      measuring = measuring.then(async () => {
        const memory = await measureMemory(child).catch(() => null);
        console.log(
          `${sent} / ${requests}` +
            (memory
              ? `; V8 heap in use after a collection ${mebibytes(memory.heapUsed)}, RSS ${mebibytes(memory.rss)}`
              : ''),
        );
      });
    },
  });
  const health = await fetch(`${target.server.url}/healthz`).then(
    (response) => response.status,
    (error: Error) => `unreachable (${error.message})`,
  );
  await measuring;
  const after = baseline ? await memoryAfterIdle() : null;
  if (snapshotDirectory) console.log(`heap snapshot: ${await snapshot('after')}`);
  const statuses = Object.entries(result.byStatus).sort(([a], [b]) => a.localeCompare(b));
  console.log(`\n${result.sent} requests in ${(result.durationMs / 1000).toFixed(1)} s (seed ${seed})`);
  console.log(`responses by status: ${statuses.map(([status, count]) => `${status}: ${count}`).join(', ')}`);
  console.log(`invariant violations: ${result.violations}; /healthz after the run: ${health}`);
  for (const failure of result.failures) {
    console.log(`\nFAIL ${failure.operation}: ${failure.reason}\n  replay: npm run fuzz -- ${failure.replay}`);
    console.log(`  request: ${failure.request}\n  answer: ${failure.body}`);
  }
  const growth = baseline && after ? growthOf(baseline, after) : 0;
  if (baseline && after) {
    for (const line of describeGrowth(baseline, after, `after the ${warmup}-request warm-up`, memorySlack)) {
      console.log(line);
    }
  }
  if (result.crashed) console.log(`\nCRASH: ${result.crashed}`);
  // The server's own account of its errors: the stack of each 500.
  const errors = target.server.logEntries().filter((entry) => Number(entry.level) >= 50);
  for (const entry of errors.slice(0, 10)) console.log(`\nserver error: ${JSON.stringify(entry).slice(0, 3_000)}`);
  const memoryBack = growth <= memorySlack;
  if (result.violations > 0 || result.crashed || health !== 200 || !memoryBack) exitCode = 1;
} finally {
  await target.stop();
}
process.exit(exitCode);

/**
 * The server's memory after 10 s without requests (timers, pools and the memory reducer have settled) and a
 * full collection; null for a server that has gone.
 */
/** A heap snapshot (--heap-snapshots), and a wait until the server, busy while writing it, serves again. */
async function snapshot(name: string): Promise<string> {
  const file = await heapSnapshot(child.pid!, snapshotDirectory!, name);
  while (
    !(await fetch(`${target.server.url}/healthz`).then(
      (response) => response.ok,
      () => false,
    ))
  ) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  return file;
}

async function memoryAfterIdle(): Promise<ServerMemory | null> {
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  if (child.exitCode !== null || child.signalCode !== null) return null;
  return measureMemory(child);
}
