import { validationError } from '../../errors.js';
import type { AgentSortField, AgentStatus, SortOrder } from '../../storage/repositories/agents.js';

/**
 * A list cursor: the filter and order it was issued for, the sort key and id of
 * the last agent of its page, and the number of the page it leads to. Opaque to
 * clients (base64url JSON); not signed, because it can only move a client
 * within its own account's agents.
 */
export interface AgentCursor {
  sortBy: AgentSortField;
  order: SortOrder;
  status: AgentStatus | null;
  key: string;
  id: string;
  page: number;
}

const sortFields: readonly string[] = ['createdAt', 'name', 'status'];
const statuses: readonly string[] = ['active', 'inactive', 'error'];

export function encodeCursor(cursor: AgentCursor): string {
  const fields = [1, cursor.sortBy, cursor.order, cursor.status, cursor.key, cursor.id, cursor.page];
  return Buffer.from(JSON.stringify(fields), 'utf8').toString('base64url');
}

export function decodeCursor(value: string): AgentCursor {
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    throw validationError('/query/cursor', 'is not a cursor this server issued');
  }
  if (
    Array.isArray(fields) &&
    fields.length === 7 &&
    fields[0] === 1 &&
    sortFields.includes(fields[1]) &&
    (fields[2] === 'asc' || fields[2] === 'desc') &&
    (fields[3] === null || statuses.includes(fields[3])) &&
    typeof fields[4] === 'string' &&
    typeof fields[5] === 'string' &&
    Number.isSafeInteger(fields[6]) &&
    fields[6] >= 1
  ) {
    return {
      sortBy: fields[1],
      order: fields[2],
      status: fields[3],
      key: fields[4],
      id: fields[5],
      page: fields[6],
    };
  }
  throw validationError('/query/cursor', 'is not a cursor this server issued');
}
