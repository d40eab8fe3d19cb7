/**
 * Provider chaos (test/chaos/provider-chaos.ts) for longer than the test:
 *   npm run bench:provider-chaos -- [--seconds 60] [--clients 12] [--seed N]
 * Prints how the requests ended, the faults the provider gave, the slowest
 * request against its bound, the circuit's transitions and the 10 concurrent
 * messages per agent after the run; exits 1 on any problem.
 */
import { parseArgs } from 'node:util';
import { providerChaosRun } from '../test/chaos/provider-chaos.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    clients: { type: 'string', default: '12' },
    seed: { type: 'string' },
  },
});
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
console.log(`provider chaos: ${values.seconds} s, ${values.clients} clients, seed ${seed}`);
const result = await providerChaosRun({
  durationMs: Number(values.seconds) * 1000,
  clients: Number(values.clients),
  seed,
  log: (line) => console.log(line),
});
const sorted = (counts: Record<string, number>) =>
  Object.entries(counts)
    .sort(([, a], [, b]) => b - a)
    .map(([name, count]) => `${name}: ${count}`)
    .join(', ');
const transitions = result.circuit.reduce<string[]>((list, state) => (list.push(state), list), []);
console.log(`requests: ${result.requests}; ended as: ${sorted(result.outcomes)}`);
console.log(`provider calls by fault: ${sorted(result.faults)}`);
console.log(`slowest request: ${result.slowestMs} ms (bound ${result.boundMs} ms)`);
console.log(
  `circuit: opened ${transitions.filter((state) => state === 'open').length} times, ` +
    `${transitions.length} transitions, last ${transitions.at(-1) ?? 'none'}`,
);
console.log(`after the provider healed: first reply within ${result.recoveredAfterMs} ms`);
console.log(`10 concurrent messages per agent afterwards: ${sorted(result.concurrentAfter)}`);
console.log(`provider connections left open: ${result.openProviderConnections}`);
console.log(`problems: ${result.problems.length}`);
for (const problem of result.problems) console.log(`  ${problem}`);
process.exit(result.problems.length === 0 ? 0 : 1);
