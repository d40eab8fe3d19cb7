import { parseArgs } from 'node:util';
import { runCampaign } from './campaign.js';
import { startFuzzTarget } from './fuzz-target.js';
import { fetchOperations } from './openapi-operations.js';
import { anyRequest } from './request-arbitrary.js';

/**
 * The long fuzzing pass: `npm run fuzz -- --requests 100000 [--seed N]
 * [--concurrency 8] [--replay block:index]`. Prints the responses by status
 * and every failure with the arguments that send that request again; exits
 * non-zero when any answer broke the invariant or the server stopped serving.
 */

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '100000' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000_000) },
    concurrency: { type: 'string', default: '8' },
    replay: { type: 'string' },
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
  const statuses = Object.entries(result.byStatus).sort(([a], [b]) => a.localeCompare(b));
  console.log(`\n${result.sent} requests in ${(result.durationMs / 1000).toFixed(1)} s (seed ${seed})`);
  console.log(`responses by status: ${statuses.map(([status, count]) => `${status}: ${count}`).join(', ')}`);
  console.log(`invariant violations: ${result.violations}; /healthz after the run: ${health}`);
  for (const failure of result.failures) {
    console.log(`\nFAIL ${failure.operation}: ${failure.reason}\n  replay: npm run fuzz -- ${failure.replay}`);
    console.log(`  request: ${failure.request}\n  answer: ${failure.body}`);
  }
  if (result.crashed) console.log(`\nCRASH: ${result.crashed}`);
  // The server's own account of its errors: the stack of each 500.
  const errors = target.server.logEntries().filter((entry) => Number(entry.level) >= 50);
  for (const entry of errors.slice(0, 10)) console.log(`\nserver error: ${JSON.stringify(entry).slice(0, 3_000)}`);
  if (result.violations > 0 || result.crashed || health !== 200) exitCode = 1;
} finally {
  await target.stop();
}
process.exit(exitCode);
