import type { InboundMessage } from '../platform.js';

/** The part of an X post (API v2) the connector reads. */
export interface XPost {
  id: string;
  text: string;
  author_id?: string;
  conversation_id?: string;
}

/** Post ids are 64-bit: compared as BigInt, never as numbers. */
export function byIdAscending(first: XPost, second: XPost): number {
  const a = BigInt(first.id);
  const b = BigInt(second.id);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A mention's text without the run of @handles X puts at the start of a reply. */
export function mentionContent(text: string): string {
  return text.replace(/^(?:@\w{1,15}\s+)+/u, '').trim();
}

/**
 * The agent's conversation keys for a mention: the author is the speaker
 * (`x:<user id>`, so memory is per person) and the thread is the room
 * (`x:<conversation id>`), where everyone's turns are shared.
 */
export function inboundFromMention(post: XPost): InboundMessage | null {
  const content = mentionContent(post.text);
  if (content === '' || post.author_id === undefined) return null;
  return { userId: `x:${post.author_id}`, roomId: `x:${post.conversation_id ?? post.id}`, content };
}
