/**
 * The takeover fleet run:
 *   npm run chaos:takeover -- [--seconds 250] [--kill-every 40] [--script path/to/main.js]
 * Two instances on the PostgreSQL of DATABASE_URL (a database of its own is
 * created and dropped there) and the Redis of REDIS_URL, with the default
 * AGENTD_RUN_STALE_MS and AGENTD_RUN_HEARTBEAT_MS, one of them killed with
 * SIGKILL every `--kill-every` seconds (in turn) and started again; 20 tasks
 * due every 20 s, 100 background runs, 20 streams followed on the other
 * instance (takeover-fleet.ts). Prints one summary line and every loss; exits
 * 1 on any. Needs a current build (`npm run build`), or `--script` naming
 * another build's main.js.
 */
import { parseArgs } from 'node:util';
import { takeoverFleet, takeoverSummary } from './takeover-fleet.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '250' },
    'kill-every': { type: 'string', default: '40' },
    script: { type: 'string' },
  },
});
const postgresUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
if (!postgresUrl?.startsWith('postgres') || !redisUrl)
  throw new Error('the takeover run needs DATABASE_URL and REDIS_URL');
const started = Date.now();
console.log(`takeover fleet: ${values.seconds} s, a kill every ${values['kill-every']} s`);
const result = await takeoverFleet({
  durationMs: Number(values.seconds) * 1000,
  killEveryMs: Number(values['kill-every']) * 1000,
  tasks: 20,
  taskEverySeconds: 20,
  backgroundRuns: 100,
  followedStreams: 20,
  postgresUrl,
  redisUrl,
  ...(values.script !== undefined ? { script: values.script } : {}),
  log: (line) => console.log(line),
});
for (const loss of result.losses.slice(0, 200)) console.log(`  LOSS ${loss}`);
if (result.losses.length > 200) console.log(`  … and ${result.losses.length - 200} more`);
console.log(`${takeoverSummary(result)}; took ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(result.losses.length === 0 ? 0 : 1);
