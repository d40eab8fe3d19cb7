/**
 * Loaded into the fuzzed server with `node --expose-gc --import`, so the
 * fuzz driver can read the memory the server holds without anything added to
 * its API: on a `measure-memory` message over the IPC channel the driver
 * opened, it runs a full garbage collection, waits for V8 to hand the freed
 * pages back, and answers with the figures. Plain JavaScript, so the server
 * runs on `dist/` without a TypeScript loader.
 *
 * Why a collection first: between collections V8's old space also holds the
 * garbage of the last requests, as much as the heap's growth factor lets it
 * (hundreds of MiB after a burst of large bodies), so the resident set read at
 * an arbitrary moment says more about when V8 last collected than about what
 * the server keeps.
 */
import v8 from 'node:v8';
import { residentByMapping } from '../../bench/soak/sampler.mjs';

/** V8 releases the pages a collection freed on a background task; a few seconds covers it on a loaded machine. */
const releaseWaitMs = 5_000;

if (typeof process.send === 'function' && typeof globalThis.gc === 'function') {
  process.on('message', (message) => {
    if (message?.type !== 'measure-memory') return;
    void (async () => {
      const rssBefore = process.memoryUsage().rss;
      globalThis.gc();
      await new Promise((resolve) => setTimeout(resolve, releaseWaitMs));
      const memory = process.memoryUsage();
      const spaces = v8.getHeapSpaceStatistics();
      const resident = (name) => spaces.find((space) => space.space_name === name)?.physical_space_size ?? 0;
      process.send({
        type: 'memory',
        rssBefore,
        rss: memory.rss,
        heapUsed: memory.heapUsed,
        heapResident: spaces.reduce((total, space) => total + space.physical_space_size, 0),
        newSpaceResident: resident('new_space'),
        external: memory.external,
        residentKiB: residentByMapping(),
      });
    })();
  });
  // The channel must not keep a server that is shutting down alive.
  process.channel?.unref();
}
