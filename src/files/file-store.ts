import { isoTime } from '../clock.js';
import { newId } from '../ids.js';
import type { AttachmentView } from '../schemas/files.js';
import type { FileRepository, FileRow } from '../storage/repositories/files.js';
import type { Executor } from '../storage/schema.js';
import { readImageFacts, type ImageMediaType } from './image-bytes.js';

/**
 * Where agentd keeps the images of conversations: one interface, whatever
 * holds the bytes. The database implementation below (bytea on PostgreSQL)
 * lets every instance serve every file and keeps them in the database's
 * backups; on SQLite the bytes are files in the data folder beside the
 * database (folder-file-store.ts), as a 1 MiB blob written into SQLite's WAL
 * and checkpointed again into the database file was most of what an image
 * added to a message (bench/README, "image-attachment"). The rows, which the
 * conversation names, are in the database either way.
 */

/** An image checked and described, with an id, ready to be stored. */
export interface CheckedImage {
  id: string;
  mediaType: ImageMediaType;
  width: number | null;
  height: number | null;
  bytes: Uint8Array;
}

/** Why bytes were refused as an image. */
export type ImageRefusal = { reason: 'too-large'; maxBytes: number } | { reason: 'not-an-image' } | { reason: 'empty' };

export interface StoredFile {
  id: string;
  accountId: string;
  agentId: string;
  mediaType: string;
  sizeBytes: number;
  createdAt: string;
}

export interface FileStore {
  /** The most bytes one image may have. */
  readonly maxImageBytes: number;
  /** Checks bytes as an image (size cap, type by magic bytes, pixel size); stores nothing. */
  check(bytes: Uint8Array): CheckedImage | ImageRefusal;
  /**
   * Writes the images' bytes where the store keeps them before any row names
   * them, durable no later than that row (folder-file-store.ts): called
   * outside any transaction (a file written while the transaction is open
   * would hold the database's writer that long), then `save` with the
   * transaction. The database store writes the bytes with the
   * rows and does nothing here.
   */
  put(owner: { accountId: string; agentId: string }, images: readonly CheckedImage[]): Promise<void>;
  /** Removes bytes `put` wrote whose rows were not written after all (the transaction failed, the agent is gone). */
  discard(owner: { accountId: string; agentId: string }, images: readonly CheckedImage[]): Promise<void>;
  /**
   * Stores checked images of one agent of one account, in the caller's
   * transaction when given (then after `put`); without one it puts the bytes itself.
   */
  save(
    owner: { accountId: string; agentId: string },
    images: readonly CheckedImage[],
    origin: 'message' | 'tool',
    executor?: Executor,
  ): Promise<void>;
  /** A file of the account with its bytes, or null (another account's file is null too). */
  read(accountId: string, fileId: string): Promise<{ file: StoredFile; bytes: Uint8Array } | null>;
  /** Whether the account has this file, without reading its bytes (conditional requests). */
  describe(accountId: string, fileId: string): Promise<StoredFile | null>;
  /** Deletes the agent's file rows, in the agent's delete transaction. */
  deleteForAgent(agentId: string, executor?: Executor): Promise<number>;
  /** Once that transaction committed: removes the bytes the rows named, where they are not in the rows. */
  removeDeleted(agentId: string): Promise<void>;
}

/** The checks every store makes: the size cap, the type by its magic bytes, the pixel size from the header. */
export function checkImage(bytes: Uint8Array, maxImageBytes: number): CheckedImage | ImageRefusal {
  if (bytes.byteLength === 0) return { reason: 'empty' };
  if (bytes.byteLength > maxImageBytes) return { reason: 'too-large', maxBytes: maxImageBytes };
  const facts = readImageFacts(bytes);
  if (facts === null) return { reason: 'not-an-image' };
  return { id: newId('file'), ...facts, bytes };
}

export function isRefusal(value: CheckedImage | ImageRefusal): value is ImageRefusal {
  return 'reason' in value;
}

/** How clients see a stored image. */
export function attachmentOf(image: CheckedImage): AttachmentView {
  return {
    fileId: image.id,
    type: 'image',
    mediaType: image.mediaType,
    url: `/v1/files/${image.id}`,
    ...(image.width !== null ? { width: image.width } : {}),
    ...(image.height !== null ? { height: image.height } : {}),
    sizeBytes: image.bytes.byteLength,
  };
}

export function storedFileOf(row: Omit<FileRow, 'body'>): StoredFile {
  return {
    id: row.id,
    accountId: row.account_id,
    agentId: row.agent_id,
    mediaType: row.media_type,
    sizeBytes: row.size_bytes,
    createdAt: row.created_at,
  };
}

/** The rows of `images` for one owner and origin, each with `bodyOf(image)` as its stored bytes. */
export function fileRowsOf(
  owner: { accountId: string; agentId: string },
  images: readonly CheckedImage[],
  origin: 'message' | 'tool',
  createdAt: string,
  bodyOf: (image: CheckedImage) => Uint8Array,
): FileRow[] {
  return images.map((image) => ({
    id: image.id,
    account_id: owner.accountId,
    agent_id: owner.agentId,
    media_type: image.mediaType,
    size_bytes: image.bytes.byteLength,
    width: image.width,
    height: image.height,
    origin,
    body: bodyOf(image),
    created_at: createdAt,
  }));
}

export class DatabaseFileStore implements FileStore {
  constructor(
    private readonly files: FileRepository,
    readonly maxImageBytes: number,
    private readonly now: () => number,
  ) {}

  check(bytes: Uint8Array): CheckedImage | ImageRefusal {
    return checkImage(bytes, this.maxImageBytes);
  }

  async put(): Promise<void> {
    // The bytes go into the rows.
  }

  async discard(): Promise<void> {
    // Nothing was written outside the rows.
  }

  async save(
    owner: { accountId: string; agentId: string },
    images: readonly CheckedImage[],
    origin: 'message' | 'tool',
    executor?: Executor,
  ): Promise<void> {
    await this.files.insert(
      fileRowsOf(owner, images, origin, isoTime(this.now()), (image) => image.bytes),
      executor,
    );
  }

  async read(accountId: string, fileId: string): Promise<{ file: StoredFile; bytes: Uint8Array } | null> {
    const row = await this.files.find(accountId, fileId);
    if (row === undefined) return null;
    return { file: storedFileOf(row), bytes: row.body };
  }

  async describe(accountId: string, fileId: string): Promise<StoredFile | null> {
    const row = await this.files.describe(accountId, fileId);
    return row === undefined ? null : storedFileOf(row);
  }

  deleteForAgent(agentId: string, executor?: Executor): Promise<number> {
    return this.files.deleteForAgent(agentId, executor);
  }

  async removeDeleted(): Promise<void> {
    // The bytes went with the rows.
  }
}
