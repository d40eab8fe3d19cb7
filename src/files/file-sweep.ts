import path from 'node:path';
import type { Logger } from 'pino';
import { sweepEveryMs, type FolderFileStore } from './folder-file-store.js';

/**
 * The folder of a SQLite database's files: beside it, named after it like
 * SQLite's own `-wal` and `-shm` (`data/agentd.sqlite-files/`), so that two
 * databases in one folder never share (and sweep) each other's files, and a
 * backup takes the database file with its companions.
 */
export function fileFolderOf(databaseFile: string): string {
  return path.join(path.dirname(databaseFile), `${path.basename(databaseFile)}-files`);
}

export interface FileSweep {
  stop(): Promise<void>;
}

/** The folder store's sweep: once soon after start-up (a crash is followed by one), then every `sweepEveryMs`. */
export function startFileSweep(store: FolderFileStore, logger: Logger, everyMs = sweepEveryMs): FileSweep {
  let running: Promise<void> | null = null;
  const sweep = () => {
    if (running) return;
    running = store
      .sweep()
      .then((removed) => {
        if (removed > 0) logger.info({ removed }, 'removed image files no stored row names');
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'the image file sweep failed; it runs again later'))
      .finally(() => {
        running = null;
      });
  };
  const first = setTimeout(sweep, 1_000);
  const timer = setInterval(sweep, everyMs);
  first.unref();
  timer.unref();
  return {
    async stop() {
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
