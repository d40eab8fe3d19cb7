import { validationError } from '../../errors.js';
import type { TurnFilter } from '../../storage/repositories/messages.js';

/**
 * How messages map to stored conversations (contract §5): a roomId names one
 * shared conversation; a userId alone names a private one; neither names
 * none, and nothing is stored.
 */
export function conversationKey(userId: string | null, roomId: string | null): string | null {
  if (roomId !== null) return `room:${roomId}`;
  if (userId !== null) return `user:${userId}`;
  return null;
}

/**
 * Which stored turns a history query or a forget request means, named the way
 * a message names its conversation: userId alone is the private conversation,
 * roomId the room, both that user's turns in the room (with the answers to
 * them), neither every turn of the agent.
 */
export function turnFilterOf(selector: { userId?: string; roomId?: string }): TurnFilter {
  if (selector.roomId !== undefined) {
    return {
      conversation: `room:${selector.roomId}`,
      ...(selector.userId !== undefined ? { userId: selector.userId } : {}),
    };
  }
  if (selector.userId !== undefined) return { conversation: `user:${selector.userId}` };
  return {};
}

/** A history cursor: the filter it was issued for and the last turn of its page (base64url JSON, opaque to clients). */
export function encodeTurnCursor(filter: TurnFilter, lastId: string): string {
  return Buffer.from(JSON.stringify([1, filter.conversation ?? null, filter.userId ?? null, lastId]), 'utf8').toString(
    'base64url',
  );
}

export function decodeTurnCursor(value: string, filter: TurnFilter): string {
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    throw validationError('/query/cursor', 'is not a cursor this server issued');
  }
  if (!Array.isArray(fields) || fields.length !== 4 || fields[0] !== 1 || typeof fields[3] !== 'string') {
    throw validationError('/query/cursor', 'is not a cursor this server issued');
  }
  if (fields[1] !== (filter.conversation ?? null) || fields[2] !== (filter.userId ?? null)) {
    throw validationError('/query/cursor', 'was issued for another userId/roomId; send the same ones with it');
  }
  return fields[3];
}
