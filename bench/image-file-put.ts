/**
 * What putting one 1 MiB image into the SQLite folder store costs the
 * message that waits for it (`FolderFileStore.put`, before the row's
 * transaction), in-process: this build's store, whose files the checkpoint
 * thread syncs, and optionally another build's (BEFORE_DIST, the `dist/` of a
 * checkout before a change, copied inside this one) side by side, the two
 * alternating in rounds of 10 puts with 5 ms between puts (the rest of a
 * message). Prints the p50 and p90 of a put and the process's CPU time (all
 * threads) while it ran.
 *
 *   npm run build && node --import tsx bench/image-file-put.ts
 *   BEFORE_DIST=.before-dist node --import tsx bench/image-file-put.ts
 *
 * ROUNDS (default 24, the first 4 not counted), IMAGE_BYTES (1,049,994: the
 * PNG of bench/image-attachment.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CheckedImage, FileStore } from '../src/files/file-store.js';
import { FolderFileStore } from '../src/files/folder-file-store.js';
import { newId } from '../src/ids.js';
import { openDatabase } from '../src/storage/database.js';
import { percentile } from './message-overhead/client.js';

const rounds = Number(process.env.ROUNDS ?? 24);
const imageBytes = Number(process.env.IMAGE_BYTES ?? 1_049_994);
const beforeDist = process.env.BEFORE_DIST;

const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-image-file-put-'));
const handle = openDatabase({ kind: 'sqlite', file: path.join(directory, 'agentd.sqlite') });
const bytes = new Uint8Array(imageBytes).fill(9);
// put() touches no repository: none is given.
const stores: Record<string, FileStore> = {
  current: new FolderFileStore(null as never, imageBytes, Date.now, path.join(directory, 'current-files'), (paths) =>
    handle.syncBeforeCheckpoint(paths),
  ),
};
if (beforeDist !== undefined) {
  const before = (await import(path.resolve(beforeDist, 'files/folder-file-store.js'))) as {
    FolderFileStore: new (...parameters: unknown[]) => FileStore;
  };
  stores.before = new before.FolderFileStore(null, imageBytes, Date.now, path.join(directory, 'before-files'));
}
const owner = { accountId: 'acc_bench', agentId: newId('agent') };
const names = Object.keys(stores);
const results = Object.fromEntries(names.map((name) => [name, { times: [] as number[], cpuMs: 0 }]));
try {
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      const images: CheckedImage[] = [];
      for (let index = 0; index < 10; index += 1) {
        const image: CheckedImage = { id: newId('file'), mediaType: 'image/png', width: 1, height: 1, bytes };
        images.push(image);
        const cpuBefore = process.cpuUsage();
        const started = performance.now();
        await stores[name]!.put(owner, [image]);
        const took = performance.now() - started;
        const cpu = process.cpuUsage(cpuBefore);
        if (round >= 4) {
          results[name]!.times.push(took);
          results[name]!.cpuMs += (cpu.user + cpu.system) / 1000;
        }
        await sleep(5);
      }
      await stores[name]!.discard(owner, images);
    }
  }
  console.log(
    `image-file-put, ${imageBytes} bytes, ${(rounds - 4) * 10} puts per build, load ${os.loadavg()[0]!.toFixed(1)}`,
  );
  for (const name of names) {
    const { times, cpuMs } = results[name]!;
    console.log(
      `  ${name.padEnd(8)} put p50 ${percentile(times, 0.5).toFixed(2)} ms  p90 ${percentile(times, 0.9).toFixed(2)} ms  ` +
        `cpu ${(cpuMs / times.length).toFixed(2)} ms/put`,
    );
  }
} finally {
  await handle.close();
  fs.rmSync(directory, { recursive: true, force: true });
}
