import { isoTime } from '../clock.js';
import { newId } from '../ids.js';
import type { AttachmentView } from '../schemas/files.js';
import type { FileRepository, FileRow } from '../storage/repositories/files.js';
import type { Executor } from '../storage/schema.js';
import { readImageFacts, type ImageMediaType } from './image-bytes.js';

/**
 * Where agentd keeps the images of conversations: one interface, whatever
 * holds the bytes. The database implementation below (a blob on SQLite, bytea
 * on PostgreSQL) lets every instance serve every file and keeps them in the
 * database's backups; another store (a data folder, object storage) would
 * implement the same three verbs.
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
  /** Stores checked images of one agent of one account, in the caller's transaction when given. */
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
  deleteForAgent(agentId: string, executor?: Executor): Promise<number>;
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

function storedFileOf(row: Omit<FileRow, 'body'>): StoredFile {
  return {
    id: row.id,
    accountId: row.account_id,
    agentId: row.agent_id,
    mediaType: row.media_type,
    sizeBytes: row.size_bytes,
    createdAt: row.created_at,
  };
}

export class DatabaseFileStore implements FileStore {
  constructor(
    private readonly files: FileRepository,
    readonly maxImageBytes: number,
    private readonly now: () => number,
  ) {}

  check(bytes: Uint8Array): CheckedImage | ImageRefusal {
    if (bytes.byteLength === 0) return { reason: 'empty' };
    if (bytes.byteLength > this.maxImageBytes) return { reason: 'too-large', maxBytes: this.maxImageBytes };
    const facts = readImageFacts(bytes);
    if (facts === null) return { reason: 'not-an-image' };
    return { id: newId('file'), ...facts, bytes };
  }

  async save(
    owner: { accountId: string; agentId: string },
    images: readonly CheckedImage[],
    origin: 'message' | 'tool',
    executor?: Executor,
  ): Promise<void> {
    const createdAt = isoTime(this.now());
    await this.files.insert(
      images.map((image) => ({
        id: image.id,
        account_id: owner.accountId,
        agent_id: owner.agentId,
        media_type: image.mediaType,
        size_bytes: image.bytes.byteLength,
        width: image.width,
        height: image.height,
        origin,
        body: image.bytes,
        created_at: createdAt,
      })),
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
}
