/**
 * The fleet chaos run:
 *   npm run chaos:fleet -- [--seconds 180] [--kill-every 30] [--seed N]
 * Three instances on the PostgreSQL of DATABASE_URL (a database of its own is
 * created and dropped there) and the Redis of REDIS_URL, behind a round-robin
 * proxy, under a mixed load, one of them killed with SIGKILL every
 * `--kill-every` seconds and started again. Prints one summary line and every
 * loss; exits 1 on any. Needs a current build (`npm run build`).
 */
import { parseArgs } from 'node:util';
import { fleetRun, summaryLine } from './fleet-run.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '180' },
    'kill-every': { type: 'string', default: '30' },
    seed: { type: 'string' },
  },
});
const postgresUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
if (!postgresUrl?.startsWith('postgres') || !redisUrl)
  throw new Error('the fleet run needs DATABASE_URL and REDIS_URL');
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const started = Date.now();
console.log(`fleet chaos: ${values.seconds} s, a kill every ${values['kill-every']} s, seed ${seed}`);
const result = await fleetRun({
  durationMs: Number(values.seconds) * 1000,
  killEveryMs: Number(values['kill-every']) * 1000,
  seed,
  postgresUrl,
  redisUrl,
  log: (line) => console.log(line),
});
for (const loss of result.losses.slice(0, 200)) console.log(`  LOSS ${loss}`);
if (result.losses.length > 200) console.log(`  … and ${result.losses.length - 200} more`);
console.log(`${summaryLine(result)}; took ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(result.losses.length === 0 ? 0 : 1);
