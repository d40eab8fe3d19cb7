import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';
import { captureLog, type CapturedLog } from '../helpers/log-capture.js';
import { waitFor } from '../helpers/wait.js';

/**
 * SQLite's commits are synced at the checkpoint (`synchronous = NORMAL`), and
 * files the rows name (the images beside the database) are synced before it:
 * a checkpoint does not run while a file handed over before it is unsynced.
 * In WAL mode the database file changes only when a checkpoint copies pages
 * into it, so its size shows whether one ran; a named pipe handed over as a
 * file holds the sync (opening it waits for a writer) for as long as the test
 * wants, and cannot be synced, which is logged.
 */
describe('SQLite checkpoints and the files the database names', () => {
  let dataDir: string;
  let file: string;
  let pipe: string;
  let handle: DatabaseHandle;
  let log: CapturedLog;
  const blobBytes = 512 * 1024;

  const databaseBytes = () => fs.statSync(file).size;
  const insertBlob = () => sql`insert into pages (body) values (randomblob(${blobBytes}))`.execute(handle.db);
  /** Lets a worker waiting to open the pipe go on (a no-op when none waits). */
  const releasePipe = () => {
    try {
      fs.closeSync(fs.openSync(pipe, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
    } catch {
      // No reader waits.
    }
  };

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-checkpointer-'));
    file = path.join(dataDir, 'agentd.sqlite');
    pipe = path.join(dataDir, 'held');
    execFileSync('mkfifo', [pipe]);
    log = captureLog();
    handle = openDatabase({ kind: 'sqlite', file }, { logger: log.logger });
    await sql`create table pages (body blob)`.execute(handle.db);
  });
  after(async () => {
    releasePipe();
    await handle?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('checkpoints on its own thread, and not past a file handed over and not yet synced', async () => {
    const start = databaseBytes();
    await insertBlob();
    assert.notEqual(await waitFor(() => databaseBytes() >= start + blobBytes, 10_000), null, 'checkpoints run');

    assert.equal(handle.syncBeforeCheckpoint([pipe]), true);
    const held = databaseBytes();
    await insertBlob();
    // Five checkpoint turns: the commit after the hand-off stays in the WAL while the file is not synced.
    assert.equal(await waitFor(() => databaseBytes() >= held + blobBytes, 1_000), null, 'no checkpoint past it');

    const writer = await fs.promises.open(pipe, 'w');
    await writer.close();
    assert.notEqual(await waitFor(() => databaseBytes() >= held + blobBytes, 10_000), null, 'checkpoints go on');
    const failed = log.entries().find((entry) => entry.msg === 'could not sync a file the database names to disk');
    assert.equal(failed?.file, pipe, 'a file that cannot be synced is logged');
  });

  it('takes no more files once closed: whoever writes one syncs it', async () => {
    const other = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'other.sqlite') });
    assert.equal(other.syncBeforeCheckpoint([dataDir]), true);
    await other.close();
    assert.equal(other.syncBeforeCheckpoint([dataDir]), false);
    const memory = openDatabase({ kind: 'sqlite', file: ':memory:' });
    assert.equal(memory.syncBeforeCheckpoint([dataDir]), false, 'an in-memory database has no checkpoints');
    await memory.close();
  });
});
