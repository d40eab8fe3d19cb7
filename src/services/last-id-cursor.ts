import { validationError } from '../errors.js';
import { isId, type IdKind } from '../ids.js';

/**
 * The cursors of lists paged by the id of their last item: opaque to clients, base64url JSON. `[1, lastId]`
 * for the event trail and usage by agent; `[1, lastId, page]` for lists that also report page numbers
 * (knowledge bases, documents, webhooks, deliveries). A cursor that is not one this server issued for such
 * ids is a 400.
 */
export function encodeLastIdCursor(lastId: string): string {
  return Buffer.from(JSON.stringify([1, lastId]), 'utf8').toString('base64url');
}

export function decodeLastIdCursor(kind: IdKind, value: string): string {
  const fields = fieldsOf(value);
  if (Array.isArray(fields) && fields.length === 2 && fields[0] === 1 && typeof fields[1] === 'string') {
    if (isId(kind, fields[1])) return fields[1];
  }
  throw notIssued();
}

export function encodePagedCursor(lastId: string, page: number): string {
  return Buffer.from(JSON.stringify([1, lastId, page]), 'utf8').toString('base64url');
}

/** `minPage`: the lowest page number the list issues in its cursors. */
export function decodePagedCursor(kind: IdKind, value: string, minPage: number): { lastId: string; page: number } {
  const fields = fieldsOf(value);
  if (
    Array.isArray(fields) &&
    fields.length === 3 &&
    fields[0] === 1 &&
    typeof fields[1] === 'string' &&
    isId(kind, fields[1]) &&
    Number.isSafeInteger(fields[2]) &&
    (fields[2] as number) >= minPage
  ) {
    return { lastId: fields[1], page: fields[2] as number };
  }
  throw notIssued();
}

function fieldsOf(value: string): unknown {
  try {
    return JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
}

const notIssued = () => validationError('/query/cursor', 'is not a cursor this server issued');
