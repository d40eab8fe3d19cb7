import fs from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { runCampaign } from './campaign.js';
import { startFuzzTarget } from './fuzz-target.js';
import { fetchOperations } from './openapi-operations.js';
import { anyRequest } from './request-arbitrary.js';

/**
 * The long fuzzing pass: `npm run fuzz -- --requests 100000 [--seed N]
 * [--concurrency 8] [--replay block:index] [--warmup 5000]`. Prints the
 * responses by status and every failure with the arguments that send that
 * request again; exits non-zero when any answer broke the invariant, the
 * server stopped serving, or its memory did not come back to its baseline.
 *
 * Memory: the server's resident set is read after a warm-up pass (code
 * loaded and compiled, caches filled) and an idle pause, and again after the
 * run and the same pause. Growth beyond `--memory-slack` (25 %) fails the run:
 * what a long run leaves behind is what a leak looks like.
 */

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '100000' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000_000) },
    concurrency: { type: 'string', default: '8' },
    replay: { type: 'string' },
    warmup: { type: 'string', default: '5000' },
    'memory-slack': { type: 'string', default: '0.25' },
  },
});
const seed = Number(values.seed);
const replayMatch = values.replay ? /^(\d+):(\d+)$/.exec(values.replay) : null;
if (values.replay && !replayMatch) throw new Error('--replay takes block:index, as printed with a failure');

const target = await startFuzzTarget();
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
  const baseline = await residentAfterIdle(target.server.child.pid!);
  const result = await runCampaign({
    target,
    arbitrary: anyRequest(operations),
    seed,
    requests,
    concurrency: Number(values.concurrency),
    ...(replayMatch ? { replay: { block: Number(replayMatch[1]), index: Number(replayMatch[2]) } } : {}),
    onProgress: (sent) => {
      if (sent % 10_000 === 0) console.log(`${sent} / ${requests}`);
    },
  });
  const health = await fetch(`${target.server.url}/healthz`).then(
    (response) => response.status,
    (error: Error) => `unreachable (${error.message})`,
  );
  const after = await residentAfterIdle(target.server.child.pid!);
  const statuses = Object.entries(result.byStatus).sort(([a], [b]) => a.localeCompare(b));
  console.log(`\n${result.sent} requests in ${(result.durationMs / 1000).toFixed(1)} s (seed ${seed})`);
  console.log(`responses by status: ${statuses.map(([status, count]) => `${status}: ${count}`).join(', ')}`);
  console.log(`invariant violations: ${result.violations}; /healthz after the run: ${health}`);
  for (const failure of result.failures) {
    console.log(`\nFAIL ${failure.operation}: ${failure.reason}\n  replay: npm run fuzz -- ${failure.replay}`);
    console.log(`  request: ${failure.request}\n  answer: ${failure.body}`);
  }
  const growth = baseline > 0 ? after / baseline - 1 : 0;
  console.log(
    `server memory (RSS): ${mebibytes(baseline)} after the ${warmup}-request warm-up, ${mebibytes(after)} after the run ` +
      `(${(growth * 100).toFixed(1)} %, allowed ${(Number(values['memory-slack']) * 100).toFixed(0)} %)`,
  );
  if (result.crashed) console.log(`\nCRASH: ${result.crashed}`);
  // The server's own account of its errors: the stack of each 500.
  const errors = target.server.logEntries().filter((entry) => Number(entry.level) >= 50);
  for (const entry of errors.slice(0, 10)) console.log(`\nserver error: ${JSON.stringify(entry).slice(0, 3_000)}`);
  const memoryBack = warmup === 0 || growth <= Number(values['memory-slack']);
  if (result.violations > 0 || result.crashed || health !== 200 || !memoryBack) exitCode = 1;
} finally {
  await target.stop();
}
process.exit(exitCode);

/** The server's resident set after 10 s without requests (timers, pools and the collector have settled), in bytes. */
async function residentAfterIdle(pid: number): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const match = /^VmRSS:\s+(\d+) kB/m.exec(status);
  return match ? Number(match[1]) * 1024 : 0;
}

function mebibytes(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}
