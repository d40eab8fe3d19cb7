import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GracefulShutdown, type DrainableServer } from '../../src/http/graceful-shutdown.js';
import { captureLog } from '../helpers/log-capture.js';

/** A server whose connections end when the test says so. */
function fakeServer() {
  let finish: () => void = () => undefined;
  const calls = { close: 0, closeAllConnections: 0 };
  const closed = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const server: DrainableServer = {
    close: () => {
      calls.close += 1;
      return closed;
    },
    closeIdleConnections: () => undefined,
    closeAllConnections: () => {
      calls.closeAllConnections += 1;
      finish();
    },
  };
  return { server, calls, connectionsEnded: () => finish() };
}

describe('graceful shutdown', () => {
  it('waits for running work that ends before the deadline', async () => {
    const shutdown = new GracefulShutdown(captureLog().logger);
    const { server, calls, connectionsEnded } = fakeServer();
    let endedByShutdown = false;
    const stream = shutdown.beginStream(() => {
      endedByShutdown = true;
    });
    const draining = shutdown.drain(server, 5000);
    assert.equal(shutdown.draining, true);
    stream.end();
    connectionsEnded();
    assert.deepEqual(await draining, { timedOut: false });
    assert.equal(endedByShutdown, false, 'a stream that ended in time is never told to end');
    assert.equal(calls.closeAllConnections, 0);
  });

  it('tells streams to end at the deadline and lets them finish before cutting connections', async () => {
    const shutdown = new GracefulShutdown(captureLog().logger, { endGraceMs: 5000 });
    const { server, calls, connectionsEnded } = fakeServer();
    let endedByShutdown = false;
    // A well-behaved stream: it ends its reply when told to.
    const stream = shutdown.beginStream(() => {
      endedByShutdown = true;
      stream.end();
      connectionsEnded();
    });
    assert.equal(shutdown.streamsInFlight, 1);
    const result = await shutdown.drain(server, 50);
    assert.deepEqual(result, { timedOut: true });
    assert.equal(endedByShutdown, true);
    assert.equal(shutdown.streamsInFlight, 0);
    assert.equal(calls.closeAllConnections, 0, 'nothing had to be cut');
  });

  it('tells thousands of streams to end without piling listeners on one signal', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const shutdown = new GracefulShutdown(captureLog().logger, { endGraceMs: 5000 });
      const { server, connectionsEnded } = fakeServer();
      let ended = 0;
      for (let index = 0; index < 2000; index += 1) {
        const stream = shutdown.beginStream(() => {
          ended += 1;
          stream.end();
          if (shutdown.streamsInFlight === 0) connectionsEnded();
        });
      }
      assert.deepEqual(await shutdown.drain(server, 20), { timedOut: true });
      assert.equal(ended, 2000);
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(
        warnings.map((warning) => warning.name),
        [],
      );
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('cuts the connections of streams that do not end within the grace', async () => {
    const shutdown = new GracefulShutdown(captureLog().logger, { endGraceMs: 50 });
    const { server, calls } = fakeServer();
    shutdown.beginStream(() => undefined);
    assert.deepEqual(await shutdown.drain(server, 50), { timedOut: true });
    assert.equal(calls.closeAllConnections, 1);
  });

  it('moves the deadline to now when hurried', async () => {
    const shutdown = new GracefulShutdown(captureLog().logger, { endGraceMs: 50 });
    const { server } = fakeServer();
    const started = Date.now();
    const draining = shutdown.drain(server, 60_000);
    shutdown.hurry();
    assert.deepEqual(await draining, { timedOut: true });
    assert.ok(Date.now() - started < 5000);
  });
});
