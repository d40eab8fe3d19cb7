import { notFound } from '../../errors.js';
import type { StoredFile } from '../../files/file-store.js';
import { requireScope, type ServiceContext } from '../context.js';

/** A file of the caller's account, with its bytes; another account's file is not found, like a missing one. */
export async function getFile({
  ctx,
  fileId,
}: {
  ctx: ServiceContext;
  fileId: string;
}): Promise<{ file: StoredFile; bytes: Uint8Array }> {
  requireScope(ctx, 'agents:read');
  const found = await ctx.deps.files.store.read(ctx.actor.accountId, fileId);
  if (found === null) throw notFound('File');
  return found;
}

/** Whether the caller's account has the file (a conditional request needs no bytes). */
export async function describeFile({ ctx, fileId }: { ctx: ServiceContext; fileId: string }): Promise<StoredFile> {
  requireScope(ctx, 'agents:read');
  const file = await ctx.deps.files.store.describe(ctx.actor.accountId, fileId);
  if (file === null) throw notFound('File');
  return file;
}
