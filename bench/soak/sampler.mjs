/**
 * Loaded into the agentd under soak with `node --import`, so the figures come
 * from inside the server without adding anything to its API. Every
 * SOAK_SAMPLE_INTERVAL_MS (default 5000) it appends one JSON line to
 * SOAK_SAMPLES_FILE: memory, the event loop's delay over the interval, active
 * resources (handles and requests) and open file descriptors.
 *
 * Plain JavaScript, so the server runs on `dist/` without a TypeScript loader
 * whose own memory would be measured along with agentd's.
 */
import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import v8 from 'node:v8';

// Where RSS lives, to tell V8's spaces from the allocator's pages: resident memory by kind of mapping
// (/proc/self/smaps: the brk heap is glibc's main arena, anonymous mappings are V8's pages and the
// other threads' malloc arenas, file mappings are code). Also read by test/fuzz/memory-probe.mjs.
export function residentByMapping() {
  let text;
  try {
    text = fs.readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return null;
  }
  const kib = { brkHeap: 0, anonymous: 0, file: 0, stack: 0, other: 0 };
  let kind = 'other';
  for (const line of text.split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (header) {
      const name = header[2];
      kind =
        name === '[heap]'
          ? 'brkHeap'
          : name === ''
            ? 'anonymous'
            : name.startsWith('[stack')
              ? 'stack'
              : name.startsWith('/')
                ? 'file'
                : 'other';
      continue;
    }
    if (line.startsWith('Rss:')) kib[kind] += Number(line.slice(4).trim().split(' ')[0]);
  }
  return kib;
}

const file = process.env.SOAK_SAMPLES_FILE;
const intervalMs = Number(process.env.SOAK_SAMPLE_INTERVAL_MS ?? 5000);
// With `--expose-gc`: every sample after a full collection, so it shows what is still held.
const collectFirst = process.env.SOAK_COLLECT_BEFORE_SAMPLE === '1' && typeof globalThis.gc === 'function';

if (file) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const startedAt = Date.now();
  const milliseconds = (nanoseconds) => Math.round(nanoseconds / 1e4) / 100;

  const openFileDescriptors = () => {
    try {
      // Less the one readdir itself holds open while it reads.
      return fs.readdirSync('/proc/self/fd').length - 1;
    } catch {
      return null;
    }
  };

  // Per V8 space what it holds and has resident.
  const heapSpaces = () =>
    Object.fromEntries(
      v8
        .getHeapSpaceStatistics()
        .map((space) => [
          space.space_name,
          { size: space.space_size, used: space.space_used_size, physical: space.physical_space_size },
        ]),
    );

  const sample = () => {
    if (collectFirst) globalThis.gc();
    const memory = process.memoryUsage();
    const resources = process.getActiveResourcesInfo();
    const resourceKinds = {};
    for (const kind of resources) resourceKinds[kind] = (resourceKinds[kind] ?? 0) + 1;
    const line = {
      time: new Date().toISOString(),
      seconds: Math.round((Date.now() - startedAt) / 100) / 10,
      rss: memory.rss,
      heapUsed: memory.heapUsed,
      heapTotal: memory.heapTotal,
      external: memory.external,
      arrayBuffers: memory.arrayBuffers,
      loopDelayP50Ms: milliseconds(delay.percentile(50)),
      loopDelayP99Ms: milliseconds(delay.percentile(99)),
      loopDelayMaxMs: milliseconds(delay.max),
      activeResources: resources.length,
      resourceKinds,
      fileDescriptors: openFileDescriptors(),
      collected: collectFirst,
      residentKiB: residentByMapping(),
      heapSpaces: heapSpaces(),
    };
    delay.reset();
    // Synchronous and small: a line every few seconds, and it must not be lost if the process is killed.
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  };

  sample();
  // Unreferenced, so it never keeps a server that is shutting down alive; it is itself one of the counted timers.
  setInterval(sample, intervalMs).unref();
}
