import { generateApiKey } from '../../src/security/api-key-secret.js';
import { startServer, type ServerProcess } from '../helpers/server-process.js';
import { AcknowledgedLedger } from './acknowledged-ledger.js';
import { AgentdClient } from './agentd-client.js';
import { openDurabilityDatabase, type DatabaseKind } from './durability-database.js';
import { runLoadClient, type LoadRound } from './load-client.js';
import { SeededRandom } from './seeded-random.js';
import { halfWrittenState } from './storage-checks.js';
import { verifyAcknowledged } from './verify-after-restart.js';

export interface CrashRunOptions {
  database: DatabaseKind;
  kills: number;
  seed: number;
  /** Concurrent clients of the load (default 6). */
  clients?: number;
  /** Acknowledged writes between two kills, drawn in this range (default 15–80). */
  writesPerKill?: [number, number];
  postgresUrl?: string;
  log?: (line: string) => void;
}

export interface CrashRunResult {
  database: DatabaseKind;
  seed: number;
  kills: number;
  /** Acknowledged writes over the run, by kind. */
  acknowledged: AcknowledgedLedger['acknowledged'];
  acknowledgedTotal: number;
  /** Checks of acknowledged writes after restarts (each restart checks everything acknowledged so far). */
  checked: number;
  lost: string[];
  halfWritten: string[];
  /** Answers during the load that no client should get (5xx, wrong statuses). */
  unexpected: string[];
  /** Cut-off idempotent creates answered 409 after a restart (their claim outlived the process). */
  abandonedClaims: number;
}

/**
 * Kill -9 under load, `kills` times, on one database: start the server on the
 * same data, check what was acknowledged, load it from several clients, kill
 * it at the moment a seeded number of writes has been acknowledged, and read
 * the storage it left behind. A last restart checks the last round.
 */
export async function crashRun(options: CrashRunOptions): Promise<CrashRunResult> {
  const log = options.log ?? (() => undefined);
  const random = new SeededRandom(options.seed);
  const clientCount = options.clients ?? 6;
  const [fewest, most] = options.writesPerKill ?? [15, 80];
  const database = await openDurabilityDatabase(options.database, options.postgresUrl);
  const key = generateApiKey();
  const environment = {
    ...database.serverEnvironment,
    AGENTD_BOOTSTRAP_KEY: key,
    AGENTD_RATE_LIMITS: 'off',
    // Streams of several words that take a few milliseconds: kills land inside them too.
    AGENTD_BUILTIN_WORD_DELAY_MS: '1',
  };
  const ledger = new AcknowledgedLedger();
  const owners = new Map<string, number>();
  let number = 0;
  const result: CrashRunResult = {
    database: options.database,
    seed: options.seed,
    kills: 0,
    acknowledged: ledger.acknowledged,
    acknowledgedTotal: 0,
    checked: 0,
    lost: [],
    halfWritten: [],
    unexpected: [],
    abandonedClaims: 0,
  };
  let server: ServerProcess | null = null;
  try {
    for (let round = 0; round <= options.kills; round += 1) {
      server = await startServer(environment);
      const client = new AgentdClient(server.url, key);
      if (round > 0) {
        const verification = await verifyAcknowledged(client, ledger, owners, () => random.between(0, clientCount - 1));
        result.checked += verification.checked;
        result.lost.push(...verification.lost.map((problem) => `after kill ${round}: ${problem}`));
        result.abandonedClaims += verification.abandonedClaims;
        log(
          `kill ${round}: ${verification.checked} acknowledged writes checked, ${verification.lost.length} lost` +
            (verification.abandonedClaims ? `, ${verification.abandonedClaims} abandoned idempotency claims` : ''),
        );
      }
      if (round === options.kills) break;

      const running = server;
      const target = ledger.total + random.between(fewest, most);
      const loadRound: LoadRound = {
        client,
        ledger,
        owners,
        unexpected: result.unexpected,
        nextNumber: () => (number += 1),
        acknowledged() {
          // The kill lands while the other clients' requests are at whatever stage they have reached.
          if (ledger.total >= target && running.child.exitCode === null && running.child.signalCode === null) {
            running.child.kill('SIGKILL');
          }
        },
      };
      const clients = Array.from({ length: clientCount }, (_, index) =>
        runLoadClient(loadRound, index, new SeededRandom(random.between(0, 2 ** 31))),
      );
      await Promise.all(clients);
      // Every client stops only when its request went unanswered, so the server is dead by now.
      await server.stop('SIGKILL');
      result.kills += 1;

      const storage = await halfWrittenState(database);
      result.halfWritten.push(...storage.map((problem) => `after kill ${round + 1}: ${problem}`));
    }
    await server?.stop('SIGTERM');
    server = null;
    // The last restart replayed cut-off idempotent creates: that must not have made a second agent either.
    const storage = await halfWrittenState(database);
    result.halfWritten.push(...storage.map((problem) => `at the end: ${problem}`));
  } finally {
    await server?.stop('SIGKILL');
    await database.remove();
  }
  result.acknowledgedTotal = ledger.total;
  return result;
}
