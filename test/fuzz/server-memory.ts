import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The fuzzed server's memory, as memory-probe.mjs reports it from inside the
 * server after a full collection: what the run is judged by. Node flags to
 * start the server with come from `probeNodeFlags`.
 */

export interface ServerMemory {
  /** Resident set before the collection: what a look at /proc at that moment shows. */
  rssBefore: number;
  /** Resident set after the collection and V8's release of the pages it freed. */
  rss: number;
  /** What the V8 heap holds alive. */
  heapUsed: number;
  /** Pages V8 has resident for its heap, live or not; the young generation's among them. */
  heapResident: number;
  newSpaceResident: number;
  external: number;
  /** /proc/self/smaps by kind of mapping: brkHeap is glibc's main arena (SQLite's pages among it). */
  residentKiB: { brkHeap: number; anonymous: number; file: number } | null;
}

const probeUrl = pathToFileURL(fileURLToPath(new URL('./memory-probe.mjs', import.meta.url))).href;
export const probeNodeFlags = ['--expose-gc', '--import', probeUrl];

/** Asks the server's probe for its memory (a full collection first); the server needs `probeNodeFlags` and IPC. */
export async function measureMemory(child: ChildProcess, timeoutMs = 120_000): Promise<ServerMemory> {
  if (!child.send) throw new Error('the server was started without an IPC channel');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off('message', onMessage);
      reject(new Error(`the server's memory probe did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const onMessage = (message: { type?: string } & ServerMemory) => {
      if (message?.type !== 'memory') return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(message);
    };
    child.on('message', onMessage);
    child.send!({ type: 'measure-memory' });
  });
}

export function mebibytes(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}

/**
 * What the run is judged by: the resident set after a full collection, less V8's young generation. V8 sizes
 * the young generation from the recent allocation rate, anywhere from 1 to 128 MiB here (the server's
 * `--max-semi-space-size=64`), and keeps it resident though a full collection leaves it empty; the same
 * server has shown 1.5 MiB of it at one idle baseline and 120 MiB at the next. Everything that holds state
 * stays in: the old generation, code, memory outside V8's heap, what the allocators keep.
 */
export function heldMemory(memory: ServerMemory): number {
  return memory.rss - memory.newSpaceResident;
}

/** Resident memory outside V8's heap: native code and data, SQLite, the allocators' arenas. */
export function outsideHeap(memory: ServerMemory): number {
  return memory.rss - memory.heapResident;
}

/** How much the held memory grew from `baseline` to `after`, as a fraction. */
export function growthOf(baseline: ServerMemory, after: ServerMemory): number {
  return heldMemory(after) / heldMemory(baseline) - 1;
}

/** Lines comparing two measurements, the judged figure (heldMemory) first. */
export function describeGrowth(baseline: ServerMemory, after: ServerMemory, label: string, slack: number): string[] {
  const row = (name: string, read: (memory: ServerMemory) => number) =>
    `  ${name}: ${mebibytes(read(baseline))} → ${mebibytes(read(after))}`;
  return [
    `server memory (RSS after a full collection, less the young generation): ${mebibytes(heldMemory(baseline))} ` +
      `${label}, ${mebibytes(heldMemory(after))} after the run (${(growthOf(baseline, after) * 100).toFixed(1)} %, ` +
      `allowed ${(slack * 100).toFixed(0)} %)`,
    row('RSS before the collection', (memory) => memory.rssBefore),
    row('RSS after the collection', (memory) => memory.rss),
    row('V8 heap in use', (memory) => memory.heapUsed),
    row('V8 heap resident', (memory) => memory.heapResident),
    `    of it the young generation: ${mebibytes(baseline.newSpaceResident)} → ${mebibytes(after.newSpaceResident)}`,
    row('resident outside the V8 heap', outsideHeap),
    row('  of it the brk heap (main malloc arena)', (memory) => (memory.residentKiB?.brkHeap ?? 0) * 1024),
  ];
}

/**
 * A heap snapshot of the server (started with --heapsnapshot-signal=SIGUSR2), written into its working
 * directory and moved to `directory` as `name.heapsnapshot`. Writing one mallocs about as much as the heap
 * holds, which glibc keeps: the RSS read after a snapshot is not comparable with one read without.
 */
export async function heapSnapshot(pid: number, directory: string, name: string): Promise<string> {
  await fs.mkdir(directory, { recursive: true });
  const before = new Set(await fs.readdir(process.cwd()));
  process.kill(pid, 'SIGUSR2');
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const written = (await fs.readdir(process.cwd())).find(
      (file) => file.endsWith('.heapsnapshot') && !before.has(file),
    );
    if (written === undefined) continue;
    // Complete once its size stops changing.
    let size = -1;
    while (size !== (await fs.stat(written)).size) {
      size = (await fs.stat(written)).size;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    const destination = path.join(directory, `${name}.heapsnapshot`);
    await fs.rename(written, destination);
    return destination;
  }
}
