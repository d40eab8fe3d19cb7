import { writeFile } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { isoTime } from '../clock.js';
import { isId } from '../ids.js';
import type { FileRepository } from '../storage/repositories/files.js';
import type { Executor } from '../storage/schema.js';
import {
  checkImage,
  fileRowsOf,
  storedFileOf,
  type CheckedImage,
  type FileStore,
  type ImageRefusal,
} from './file-store.js';

/**
 * The images of a SQLite agentd as files beside its database,
 * `<database>-files/<agentId>/<fileId>`, their rows (type, size, owner) in the
 * database with no bytes. A 1 MiB blob costs SQLite its copy into the WAL on
 * the event loop at commit and a second copy into the database file by the
 * checkpoint thread; a file is one write, on libuv's thread pool
 * (bench/README, "image-attachment").
 *
 * Crash-safe in the order of the writes:
 * - a file is written before the transaction that writes its row begins, so
 *   no row ever names a missing file after the process dies (the written
 *   bytes are in the system's page cache, which outlives the process); a
 *   message's images are written while the model answers (exchange-store.ts,
 *   `keepImages`);
 * - against a power loss, a file is as durable as the row that names it, as
 *   the database's commits are (`synchronous = NORMAL`: synced at the next
 *   checkpoint, not at commit): handed to the database before the row's
 *   commit, it is synced (data and its folder's entry) before the checkpoint
 *   that syncs that commit (sqlite-checkpointer.ts). Where no checkpoint
 *   thread runs, `put` syncs it itself, as before the row. What is left
 *   (docs/files.md): the system may write the WAL's pages to disk on its own
 *   before the file's, so a power loss within moments of a message may keep
 *   its turn and lose its image's bytes;
 * - a file whose row was never written (the process died in between, the
 *   transaction failed, the agent was deleted meanwhile) is removed at once
 *   when the process lives on (`discard`), else by the sweep: at start-up and
 *   every `sweepEveryMs`, files older than `sweepGraceMs` with no row;
 * - an agent's rows go in its delete transaction and its folder once that
 *   committed (a kill in between leaves files without rows: the sweep's).
 *
 * Rows written before this store (bytes in `body`) are read from the row.
 */

/**
 * A file younger than this may belong to an exchange not stored yet (its
 * bytes are written as the model starts answering, its row when the answer
 * is complete): the sweep leaves it. A day is far beyond any reply.
 */
export const sweepGraceMs = 24 * 60 * 60_000;
/** How often the sweep looks for files without rows. */
export const sweepEveryMs = 60 * 60_000;
const sweepBatch = 500;
/** Rows whose bytes are in the folder hold none (an image is never empty). */
const noBytes = Buffer.alloc(0);

function codeOf(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

/**
 * Creates a file with its bytes: the callback API writes the whole buffer in
 * one call, where `fs/promises` writes 512 KiB at a time through a file
 * handle (two more trips to the thread pool for a 1 MiB image, and more of
 * the event loop's time).
 */
function createFile(file: string, bytes: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) =>
    writeFile(file, bytes, { flag: 'wx' }, (error) => (error ? reject(error) : resolve())),
  );
}

/** Data and, for a folder, its entries reach the disk (fsync). */
async function syncPath(file: string): Promise<void> {
  const handle = await fs.open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export class FolderFileStore implements FileStore {
  /** Agent folders this process made or wrote into: no `mkdir` before their next file (a removed one is made again). */
  readonly #existingFolders = new Set<string>();

  constructor(
    private readonly files: FileRepository,
    readonly maxImageBytes: number,
    private readonly now: () => number,
    /** `<database>-files`. */
    private readonly folder: string,
    /**
     * Takes files and folders to sync before the database syncs the commits
     * that name them (`DatabaseHandle.syncBeforeCheckpoint`); when it declines,
     * `put` syncs them itself before it returns.
     */
    private readonly syncBeforeCheckpoint: (paths: readonly string[]) => boolean = () => false,
  ) {}

  check(bytes: Uint8Array): CheckedImage | ImageRefusal {
    return checkImage(bytes, this.maxImageBytes);
  }

  /** The agent's folder; ids are generated here, but a path is only ever made of one that looks like one. */
  #agentFolder(agentId: string): string {
    if (!isId('agent', agentId)) throw new Error(`not an agent id: ${JSON.stringify(agentId)}`);
    return path.join(this.folder, agentId);
  }

  #fileOf(agentFolder: string, fileId: string): string {
    if (!isId('file', fileId)) throw new Error(`not a file id: ${JSON.stringify(fileId)}`);
    return path.join(agentFolder, fileId);
  }

  async put(owner: { accountId: string; agentId: string }, images: readonly CheckedImage[]): Promise<void> {
    if (images.length === 0) return;
    const folder = this.#agentFolder(owner.agentId);
    const files = images.map((image) => this.#fileOf(folder, image.id));
    const write = async () => {
      const created = this.#existingFolders.has(folder) ? undefined : await fs.mkdir(folder, { recursive: true });
      await Promise.all(files.map((file, index) => createFile(file, images[index]!.bytes)));
      this.#existingFolders.add(folder);
      return created;
    };
    try {
      let created: string | undefined;
      try {
        created = await write();
      } catch (error) {
        // The sweep removed the agent's empty folder before a write: once more.
        if (codeOf(error) !== 'ENOENT') throw error;
        this.#existingFolders.delete(folder);
        await this.discard(owner, images);
        created = await write();
      }
      // A new file's name is durable once its folder is synced, a new folder's once its parent is.
      const synced = [...files, folder];
      if (created !== undefined) {
        for (let directory = folder; ; directory = path.dirname(directory)) {
          synced.push(path.dirname(directory));
          if (directory === created) break;
        }
      }
      if (!this.syncBeforeCheckpoint(synced)) await Promise.all(synced.map(syncPath));
    } catch (error) {
      await this.discard(owner, images);
      throw error;
    }
  }

  async discard(owner: { accountId: string; agentId: string }, images: readonly CheckedImage[]): Promise<void> {
    const folder = this.#agentFolder(owner.agentId);
    await Promise.all(
      images.map((image) =>
        fs.rm(this.#fileOf(folder, image.id), { force: true }).catch(() => {
          // Left to the sweep.
        }),
      ),
    );
  }

  async save(
    owner: { accountId: string; agentId: string },
    images: readonly CheckedImage[],
    origin: 'message' | 'tool',
    executor?: Executor,
  ): Promise<void> {
    if (images.length === 0) return;
    const rows = fileRowsOf(owner, images, origin, isoTime(this.now()), () => noBytes);
    if (executor !== undefined) {
      await this.files.insert(rows, executor);
      return;
    }
    await this.put(owner, images);
    try {
      await this.files.insert(rows);
    } catch (error) {
      await this.discard(owner, images);
      throw error;
    }
  }

  async read(accountId: string, fileId: string) {
    const row = await this.files.find(accountId, fileId);
    if (row === undefined) return null;
    const file = storedFileOf(row);
    if (row.body.byteLength > 0) return { file, bytes: row.body };
    // A row without its file would be a broken store: an error (500, logged), not a 404.
    const bytes = await fs.readFile(this.#fileOf(this.#agentFolder(row.agent_id), row.id));
    return { file, bytes };
  }

  async describe(accountId: string, fileId: string) {
    const row = await this.files.describe(accountId, fileId);
    return row === undefined ? null : storedFileOf(row);
  }

  deleteForAgent(agentId: string, executor?: Executor): Promise<number> {
    return this.files.deleteForAgent(agentId, executor);
  }

  async removeDeleted(agentId: string): Promise<void> {
    const folder = this.#agentFolder(agentId);
    this.#existingFolders.delete(folder);
    await fs.rm(folder, { recursive: true, force: true });
  }

  /**
   * Removes files older than `sweepGraceMs` that no row names, and agent
   * folders left empty by that; returns how many files it removed.
   */
  async sweep(): Promise<number> {
    const cutoff = this.now() - sweepGraceMs;
    let agentFolders: string[];
    try {
      agentFolders = await fs.readdir(this.folder);
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return 0;
      throw error;
    }
    let removed = 0;
    for (const agentId of agentFolders) {
      if (!isId('agent', agentId)) continue;
      const folder = path.join(this.folder, agentId);
      let names: string[];
      try {
        names = await fs.readdir(folder);
      } catch {
        continue;
      }
      const old: string[] = [];
      for (const name of names) {
        if (!isId('file', name)) continue;
        const stat = await fs.stat(path.join(folder, name)).catch(() => null);
        if (stat !== null && stat.mtimeMs < cutoff) old.push(name);
      }
      let left = names.length;
      for (let start = 0; start < old.length; start += sweepBatch) {
        const batch = old.slice(start, start + sweepBatch);
        const named = await this.files.existing(batch);
        for (const name of batch) {
          if (named.has(name)) continue;
          await fs.rm(path.join(folder, name), { force: true });
          removed += 1;
          left -= 1;
        }
      }
      // A deleted agent's folder (its delete's removal was cut short); fails harmlessly if a file came meanwhile.
      if (left === 0) {
        this.#existingFolders.delete(folder);
        await fs.rmdir(folder).catch(() => undefined);
      }
    }
    return removed;
  }
}
