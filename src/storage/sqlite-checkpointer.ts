import fs from 'node:fs';
import { createRequire } from 'node:module';
import { MessageChannel, Worker } from 'node:worker_threads';
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
 * With `synchronous = NORMAL` a commit is not synced: the WAL is, at the
 * start of a checkpoint, and that is when commits become durable against a
 * power loss. Files that rows name (the images beside the database) are made
 * as durable as those rows, and no sooner: they are handed over here
 * (`syncBeforeCheckpoint`) before the commit that names them, and the worker
 * syncs every file handed over before it checkpoints, so the WAL sync that
 * makes a row durable comes after its file's. The hand-off is a message on a
 * port the worker reads synchronously (`receiveMessageOnPort`) right before
 * each checkpoint: a file handed over before a commit is always seen by the
 * checkpoint that could sync that commit, whatever the worker's event loop.
 *
 * If the worker cannot start or stops, the writer checkpoints itself again,
 * so the WAL never grows without bound; the files handed over and not yet
 * synced are synced then, and later ones are the caller's to sync.
 */
const workerSource = `
const fs = require('node:fs');
const { parentPort, receiveMessageOnPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const files = workerData.files;
const connection = new Database(workerData.file);
connection.pragma('busy_timeout = 1000');
const checkpoint = connection.prepare('pragma wal_checkpoint(PASSIVE)');
function sync(path) {
  let descriptor;
  try {
    descriptor = fs.openSync(path, 'r');
    fs.fsyncSync(descriptor);
  } catch (error) {
    // A file removed since (its row was never written, its agent was deleted) needs no sync.
    if (error.code !== 'ENOENT') files.postMessage({ failed: path, message: error.message });
  } finally {
    if (descriptor !== undefined) fs.closeSync(descriptor);
  }
}
// Until no more come: a file handed over while others were syncing belongs to a commit this checkpoint may sync too.
function syncHandedOver() {
  let last = null;
  for (;;) {
    const paths = new Set();
    for (let received = receiveMessageOnPort(files); received; received = receiveMessageOnPort(files)) {
      for (const path of received.message.paths) paths.add(path);
      last = received.message.sequence;
    }
    if (paths.size === 0) break;
    for (const path of paths) sync(path);
  }
  if (last !== null) files.postMessage({ synced: last });
}
const timer = setInterval(() => {
  try {
    syncHandedOver();
    checkpoint.get();
  } catch {
    // Busy or closing: the next turn tries again.
  }
}, workerData.everyMs);
parentPort.once('message', () => {
  clearInterval(timer);
  // The writer's own checkpoint as it closes syncs the WAL: everything handed over first.
  syncHandedOver();
  connection.close();
  files.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  /**
   * Hands over files (or folders, for the names in them) that a commit about
   * to be made will name: they are synced before the next checkpoint syncs
   * the WAL. False when the worker no longer runs: the caller syncs them
   * itself before the commit.
   */
  syncBeforeCheckpoint(paths: readonly string[]): boolean;
  close(): Promise<void>;
}

/** What the worker tells the main thread about the files handed over. */
type FileReport = { synced: number } | { failed: string; message: string };

/** Data and entries on disk, on the calling thread: only where the worker fell over. */
function syncNow(file: string, onSyncFailed?: (path: string, message: string) => void): void {
  let descriptor: number | undefined;
  try {
    descriptor = fs.openSync(file, 'r');
    fs.fsyncSync(descriptor);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') onSyncFailed?.(file, (error as Error).message);
  } finally {
    if (descriptor !== undefined) fs.closeSync(descriptor);
  }
}

export function startCheckpointer(
  writer: SqliteDatabase.Database,
  file: string,
  options: { everyMs?: number; onSyncFailed?: (path: string, message: string) => void } = {},
): Checkpointer | null {
  const channel = new MessageChannel();
  let worker: Worker;
  try {
    worker = new Worker(workerSource, {
      eval: true,
      workerData: {
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
        file,
        everyMs: options.everyMs ?? 200,
        files: channel.port2,
      },
      transferList: [channel.port2],
      // A small heap: the worker holds one connection, one statement and the paths of a few files.
      resourceLimits: { maxOldGenerationSizeMb: 16 },
    });
  } catch {
    channel.port1.close();
    return null;
  }
  worker.unref();
  writer.pragma('wal_autocheckpoint = 0');
  /** Handed over and not yet reported synced, by sequence number: synced here if the worker falls over. */
  const unsynced = new Map<number, readonly string[]>();
  let sequence = 0;
  let running = true;
  let closed = false;
  channel.port1.on('message', (report: FileReport) => {
    if ('synced' in report) {
      for (const handed of unsynced.keys()) {
        if (handed > report.synced) break;
        unsynced.delete(handed);
      }
    } else {
      options.onSyncFailed?.(report.failed, report.message);
    }
  });
  channel.port1.unref();
  const fallBack = () => {
    if (!running) return;
    running = false;
    // After a close the worker synced everything handed over before it stopped.
    if (!closed) for (const paths of unsynced.values()) for (const path of paths) syncNow(path, options.onSyncFailed);
    unsynced.clear();
    channel.port1.close();
    if (!closed && writer.open) writer.pragma('wal_autocheckpoint = 1000');
  };
  worker.on('error', fallBack);
  worker.on('exit', fallBack);
  return {
    syncBeforeCheckpoint(paths) {
      if (!running || closed) return false;
      sequence += 1;
      unsynced.set(sequence, paths);
      channel.port1.postMessage({ sequence, paths });
      return true;
    },
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
