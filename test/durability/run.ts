/**
 * The long crash-durability run:
 *   node --import tsx test/durability/run.ts --kills 20 --database sqlite|postgres [--seed N] [--clients N]
 * PostgreSQL is reached through DATABASE_URL (a database of its own is created
 * and dropped there). Exits 1 when an acknowledged write was lost or a
 * half-written one found. Needs a current build (`npm run build`).
 */
import { parseArgs } from 'node:util';
import { crashRun } from './crash-run.js';

const { values } = parseArgs({
  options: {
    kills: { type: 'string', default: '20' },
    database: { type: 'string', default: 'sqlite' },
    seed: { type: 'string' },
    clients: { type: 'string', default: '6' },
  },
});
if (values.database !== 'sqlite' && values.database !== 'postgres') {
  throw new Error('--database must be sqlite or postgres');
}
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const started = Date.now();
console.log(`crash durability on ${values.database}: ${values.kills} kills, seed ${seed}`);
const result = await crashRun({
  database: values.database,
  kills: Number(values.kills),
  seed,
  clients: Number(values.clients),
  postgresUrl: process.env.DATABASE_URL,
  log: (line) => console.log(line),
});
const { creates, patches, messages, deletes, replays } = result.acknowledged;
console.log(
  [
    `kills: ${result.kills}`,
    `acknowledged writes: ${result.acknowledgedTotal} (creates ${creates}, patches ${patches}, messages ${messages}, ` +
      `deletes ${deletes}, idempotent replays ${replays})`,
    `acknowledged writes checked after restarts: ${result.checked}`,
    `lost: ${result.lost.length}`,
    `half-written: ${result.halfWritten.length}`,
    `unexpected answers under load: ${result.unexpected.length}`,
    `idempotency claims found abandoned after a restart: ${result.abandonedClaims}`,
    `took: ${((Date.now() - started) / 1000).toFixed(1)} s`,
  ].join('\n'),
);
for (const problem of [...result.lost, ...result.halfWritten, ...result.unexpected]) console.log(`  ${problem}`);
process.exit(result.lost.length + result.halfWritten.length + result.unexpected.length === 0 ? 0 : 1);
