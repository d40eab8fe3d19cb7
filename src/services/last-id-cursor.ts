import { validationError } from '../errors.js';
import { isId, type IdKind } from '../ids.js';

/**
 * The cursor of lists paged by the id of their last item (the event trail, usage by agent): opaque to
 * clients, base64url JSON `[1, lastId]`. A cursor that is not one this server issued for such ids is a 400.
 */
export function encodeLastIdCursor(lastId: string): string {
  return Buffer.from(JSON.stringify([1, lastId]), 'utf8').toString('base64url');
}

export function decodeLastIdCursor(kind: IdKind, value: string): string {
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    fields = null;
  }
  if (Array.isArray(fields) && fields.length === 2 && fields[0] === 1 && typeof fields[1] === 'string') {
    if (isId(kind, fields[1])) return fields[1];
  }
  throw validationError('/query/cursor', 'is not a cursor this server issued');
}
