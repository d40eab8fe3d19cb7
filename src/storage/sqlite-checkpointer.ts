import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SqliteDatabase from 'better-sqlite3';

/**
 * WAL checkpoints on a thread of their own. better-sqlite3 is synchronous, so
 * the checkpoint SQLite runs inside a commit once the WAL passes 1,000 pages
 * (copying pages into the database file and syncing it) stopped the event loop
 * for whatever request made that commit: about half of what storing an
 * exchange cost the main thread. The writer connection's automatic checkpoints
 * are turned off and a worker thread with its own connection runs a PASSIVE
 * checkpoint (it never waits for, or blocks, readers and the writer) every
 * `everyMs`. Written by hand: the driver has no background checkpointing, and
 * this is the whole of it.
 *
 * If the worker cannot start or stops, the writer checkpoints itself again,
 * so the WAL never grows without bound.
 */
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const connection = new Database(workerData.file);
connection.pragma('busy_timeout = 1000');
const checkpoint = connection.prepare('pragma wal_checkpoint(PASSIVE)');
const timer = setInterval(() => {
  try {
    checkpoint.get();
  } catch {
    // Busy or closing: the next turn tries again.
  }
}, workerData.everyMs);
parentPort.once('message', () => {
  clearInterval(timer);
  connection.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  close(): Promise<void>;
}

export function startCheckpointer(writer: SqliteDatabase.Database, file: string, everyMs = 200): Checkpointer | null {
  let worker: Worker;
  try {
    worker = new Worker(workerSource, {
      eval: true,
      workerData: { driver: createRequire(import.meta.url).resolve('better-sqlite3'), file, everyMs },
      // A small heap: the worker holds one connection and one statement.
      resourceLimits: { maxOldGenerationSizeMb: 16 },
    });
  } catch {
    return null;
  }
  worker.unref();
  writer.pragma('wal_autocheckpoint = 0');
  let closed = false;
  const fallBack = () => {
    if (!closed && writer.open) writer.pragma('wal_autocheckpoint = 1000');
  };
  worker.on('error', fallBack);
  worker.on('exit', fallBack);
  return {
    async close() {
      if (closed) return;
      closed = true;
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      // Held while it closes its connection: an unreferenced worker would let the process end first.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
