import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CircuitBreaker } from '../../src/providers/circuit-breaker.js';
import { ManualClock } from '../helpers/test-app.js';

function admitted(breaker: CircuitBreaker) {
  const admission = breaker.admit();
  assert.ok(admission.admitted, 'expected the call to be let through');
  return admission.ticket;
}

describe('circuit breaker', () => {
  it('opens after the threshold of consecutive failures, for the open time', () => {
    const clock = new ManualClock();
    const breaker = new CircuitBreaker({ failureThreshold: 3, openMs: 30_000 }, clock);
    for (let index = 0; index < 3; index += 1) admitted(breaker).failed();
    const refused = breaker.admit();
    assert.equal(refused.admitted, false);
    assert.equal(refused.admitted === false && refused.retryAfterMs, 30_000);
    clock.advance(29_999);
    assert.equal(breaker.admit().admitted, false);
  });

  it('counts only consecutive failures', () => {
    const breaker = new CircuitBreaker({ failureThreshold: 3, openMs: 30_000 }, new ManualClock());
    admitted(breaker).failed();
    admitted(breaker).failed();
    admitted(breaker).succeeded();
    admitted(breaker).failed();
    admitted(breaker).failed();
    assert.equal(breaker.state, 'closed');
  });

  it('lets one trial through after the open time; its success closes the circuit', () => {
    const clock = new ManualClock();
    const breaker = new CircuitBreaker({ failureThreshold: 1, openMs: 1_000 }, clock);
    admitted(breaker).failed();
    clock.advance(1_000);
    const trial = admitted(breaker);
    assert.equal(breaker.admit().admitted, false, 'only one trial at a time');
    trial.succeeded();
    assert.equal(breaker.state, 'closed');
    admitted(breaker).succeeded();
  });

  it('reopens when the trial fails, and hands the trial back when it had no outcome', () => {
    const clock = new ManualClock();
    const breaker = new CircuitBreaker({ failureThreshold: 1, openMs: 1_000 }, clock);
    admitted(breaker).failed();
    clock.advance(1_000);
    admitted(breaker).released();
    admitted(breaker).failed();
    assert.equal(breaker.state, 'open');
    clock.advance(999);
    assert.equal(breaker.admit().admitted, false);
  });

  it('reports each outcome once', () => {
    const breaker = new CircuitBreaker({ failureThreshold: 2, openMs: 1_000 }, new ManualClock());
    const ticket = admitted(breaker);
    ticket.failed();
    ticket.failed();
    assert.equal(breaker.state, 'closed');
  });
});
