import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { providerChaosRun } from './provider-chaos.js';

/**
 * A misbehaving provider under concurrent load (provider-chaos.ts): every
 * request ends within the time-outs as a reply, message.failed or a 503/429
 * problem; the circuit opens and closes again; no provider connection stays
 * open and no in-flight slot leaks. The longer run is `npm run bench:provider-chaos`.
 */
describe('provider chaos', () => {
  it('ends every request, opens and closes the circuit, and leaks no slot', async () => {
    const seed = Math.floor(Math.random() * 2 ** 31);
    const result = await providerChaosRun({ durationMs: 6_000, seed });
    const replay = `replay: npm run bench:provider-chaos -- --seconds 6 --seed ${seed}`;
    assert.deepEqual(result.problems, [], `${JSON.stringify(result.outcomes)}; ${replay}`);
    assert.ok(result.requests >= 20, `${result.requests} requests`);
    assert.ok(result.circuit.includes('open') && result.circuit.at(-1) === 'closed', result.circuit.join(' → '));
    assert.ok(
      Object.keys(result.outcomes).some((outcome) => /^(503|429) |message\.failed/.test(outcome)),
      'the faults reached the clients',
    );
    assert.equal(result.openProviderConnections, 0);
  });
});
