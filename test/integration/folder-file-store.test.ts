import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isoTime } from '../../src/clock.js';
import { fileFolderOf } from '../../src/files/file-sweep.js';
import { isRefusal, type CheckedImage } from '../../src/files/file-store.js';
import { FolderFileStore, sweepGraceMs } from '../../src/files/folder-file-store.js';
import { newId } from '../../src/ids.js';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { FileRepository } from '../../src/storage/repositories/files.js';
import { tinyPng } from '../helpers/images.js';

/**
 * The SQLite store of images as files beside the database: the bytes are on
 * disk before a row names them, rows hold no bytes, files no row names are
 * discarded or swept, an agent's folder goes with it, and rows written with
 * their bytes (before this store) are still served.
 */
describe('images as files beside a SQLite database', () => {
  let dataDir: string;
  let handle: DatabaseHandle;
  let files: FileRepository;
  let store: FolderFileStore;
  let folder: string;
  let now = Date.now();
  const owner = { accountId: 'acc_files', agentId: newId('agent') };

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-folder-files-'));
    const file = path.join(dataDir, 'agentd.sqlite');
    handle = openDatabase({ kind: 'sqlite', file });
    await migrateToLatest(handle);
    files = new FileRepository(handle.db);
    folder = fileFolderOf(file);
    store = new FolderFileStore(files, 64 * 1024, () => now, folder);
  });
  after(async () => {
    await handle?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const checked = (width = 3, height = 2): CheckedImage => {
    const result = store.check(tinyPng(width, height));
    assert.ok(!isRefusal(result));
    return result;
  };
  const fileOf = (image: CheckedImage, agentId = owner.agentId) => path.join(folder, agentId, image.id);
  const bodyOf = async (id: string) =>
    (await handle.db.selectFrom('files').select('body').where('id', '=', id).executeTakeFirst())?.body;

  it('names the folder after its database, beside it', () => {
    assert.equal(folder, path.join(dataDir, 'agentd.sqlite-files'));
  });

  it('writes the bytes before the row, keeps no bytes in the row, and serves them', async () => {
    const image = checked(5, 4);
    await store.put(owner, [image]);
    assert.deepEqual(fs.readFileSync(fileOf(image)), Buffer.from(image.bytes), 'on disk before any row');
    await handle.db.transaction().execute((transaction) => store.save(owner, [image], 'message', transaction));
    assert.equal((await bodyOf(image.id))?.byteLength, 0);
    const read = await store.read(owner.accountId, image.id);
    assert.deepEqual(Buffer.from(read!.bytes), Buffer.from(image.bytes));
    assert.equal(read!.file.sizeBytes, image.bytes.byteLength);
    assert.equal(await store.read('acc_other', image.id), null, "another account's file is not found");
  });

  it('hands its files, and the folders naming them, to the database to sync before the commits naming them', async () => {
    const handed: string[][] = [];
    const deferring = new FolderFileStore(
      files,
      64 * 1024,
      () => now,
      folder,
      (paths) => {
        handed.push([...paths]);
        return true;
      },
    );
    const fresh = { accountId: owner.accountId, agentId: newId('agent') };
    const first = checked();
    await deferring.put(fresh, [first]);
    assert.deepEqual(
      fs.readFileSync(fileOf(first, fresh.agentId)),
      Buffer.from(first.bytes),
      'written before put returns',
    );
    const second = checked();
    await deferring.put(fresh, [second]);
    const agentFolder = path.join(folder, fresh.agentId);
    assert.deepEqual(handed, [
      [fileOf(first, fresh.agentId), agentFolder, folder],
      [fileOf(second, fresh.agentId), agentFolder],
    ]);
  });

  it('makes an agent folder again when it was removed since its last file (the sweep removes empty ones)', async () => {
    const again = { accountId: owner.accountId, agentId: newId('agent') };
    const first = checked();
    await store.put(again, [first]);
    await store.discard(again, [first]);
    fs.rmdirSync(path.join(folder, again.agentId));
    const second = checked();
    await store.put(again, [second]);
    assert.deepEqual(fs.readFileSync(fileOf(second, again.agentId)), Buffer.from(second.bytes));
  });

  it('puts the bytes itself when saving without a transaction (images a tool made)', async () => {
    const image = checked();
    await store.save(owner, [image], 'tool');
    assert.ok(fs.existsSync(fileOf(image)));
    assert.deepEqual(Buffer.from((await store.read(owner.accountId, image.id))!.bytes), Buffer.from(image.bytes));
  });

  it('leaves no file when the transaction that was to name it fails', async () => {
    const image = checked();
    await store.put(owner, [image]);
    await assert.rejects(
      handle.db.transaction().execute(async (transaction) => {
        await store.save(owner, [image], 'message', transaction);
        throw new Error('the exchange failed');
      }),
    );
    await store.discard(owner, [image]);
    assert.equal(fs.existsSync(fileOf(image)), false);
    assert.equal(await store.read(owner.accountId, image.id), null);
  });

  it('serves a row written with its bytes, as before this store', async () => {
    const bytes = tinyPng(7, 7);
    const id = newId('file');
    await files.insert([
      {
        id,
        account_id: owner.accountId,
        agent_id: owner.agentId,
        media_type: 'image/png',
        size_bytes: bytes.length,
        width: 7,
        height: 7,
        origin: 'message',
        body: bytes,
        created_at: isoTime(now),
      },
    ]);
    assert.deepEqual(Buffer.from((await store.read(owner.accountId, id))!.bytes), bytes);
  });

  it('sweeps old files no row names, keeping named and young ones', async () => {
    const named = checked();
    await store.save(owner, [named], 'tool');
    const orphan = checked();
    await store.put(owner, [orphan]);
    const young = checked();
    await store.put(owner, [young]);
    const old = new Date(now - sweepGraceMs - 60_000);
    for (const image of [named, orphan]) fs.utimesSync(fileOf(image), old, old);

    assert.equal(await store.sweep(), 1);
    assert.equal(fs.existsSync(fileOf(orphan)), false, 'an old file without a row');
    assert.ok(fs.existsSync(fileOf(named)), 'a file its row names');
    assert.ok(fs.existsSync(fileOf(young)), 'a file whose exchange may still be stored');
    await store.discard(owner, [young]);
  });

  it('removes a deleted agent’s folder, and the sweep one whose removal was cut short', async () => {
    const gone = { accountId: owner.accountId, agentId: newId('agent') };
    const image = checked();
    await store.save(gone, [image], 'tool');
    await store.deleteForAgent(gone.agentId);
    await store.removeDeleted(gone.agentId);
    assert.equal(fs.existsSync(path.join(folder, gone.agentId)), false);

    // A kill between the delete's commit and the removal: files without rows, swept once old.
    const killed = { accountId: owner.accountId, agentId: newId('agent') };
    const left = checked();
    await store.save(killed, [left], 'tool');
    await store.deleteForAgent(killed.agentId);
    now += sweepGraceMs + 60_000;
    assert.ok((await store.sweep()) >= 1);
    assert.equal(fs.existsSync(path.join(folder, killed.agentId)), false);
    assert.ok(fs.existsSync(path.join(folder, owner.agentId)), 'a live agent’s folder with named files stays');
  });
});
