import type { InboundMessage } from '../platform.js';

/** Telegram's limit on one message's text (Bot API, sendMessage), counted in UTF-16 code units. */
export const telegramMessageLimit = 4096;

/**
 * Splits a reply into messages Telegram accepts: at most `limit` code units
 * each, cut at the last line break or space before the limit when there is
 * one in the second half, and never inside a surrogate pair.
 */
export function splitForTelegram(text: string, limit = telegramMessageLimit): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > limit) {
    let cut = limit;
    const newline = rest.lastIndexOf('\n', limit);
    const space = rest.lastIndexOf(' ', limit);
    const boundary = newline >= limit / 2 ? newline : space >= limit / 2 ? space : -1;
    if (boundary > 0) cut = boundary;
    else {
      const code = rest.charCodeAt(cut - 1);
      if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
    }
    parts.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^[ \n]/, '');
  }
  if (rest.length > 0 || parts.length === 0) parts.push(rest);
  return parts;
}

/** The part of a Telegram update the connector reads. */
export interface TelegramUpdate {
  update_id: number;
  message?: {
    message_id: number;
    text?: string;
    chat: { id: number; type: string };
    from?: { id: number; is_bot?: boolean };
  };
}

/**
 * The agent's conversation keys for a Telegram message: a private chat is the
 * user's own conversation; a group's members share the group's (`roomId`),
 * each turn labelled with its sender. Null for what the agent does not answer
 * (no text, or sent by a bot).
 */
export function inboundFromUpdate(update: TelegramUpdate): { chatId: number; message: InboundMessage } | null {
  const message = update.message;
  if (message === undefined || typeof message.text !== 'string' || message.text.trim() === '') return null;
  if (message.from?.is_bot) return null;
  const sender = message.from?.id ?? message.chat.id;
  const userId = `telegram:${sender}`;
  if (message.chat.type === 'private') return { chatId: message.chat.id, message: { userId, content: message.text } };
  return { chatId: message.chat.id, message: { userId, roomId: `telegram:${message.chat.id}`, content: message.text } };
}
