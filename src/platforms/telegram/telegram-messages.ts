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

/** One size of a photo Telegram holds (a message's `photo` lists them, smallest first). */
export interface TelegramPhotoSize {
  file_id: string;
  width: number;
  height: number;
  file_size?: number;
}

/** The part of a Telegram update the connector reads. */
export interface TelegramUpdate {
  update_id: number;
  message?: {
    message_id: number;
    /** When it was sent, in Unix seconds. */
    date?: number;
    text?: string;
    /** A photo message: its sizes, and its text as `caption`. */
    photo?: TelegramPhotoSize[];
    caption?: string;
    chat: { id: number; type: string };
    from?: { id: number; is_bot?: boolean };
  };
}

/** What a photo sent without a caption says to the agent. */
export const uncaptionedPhotoText = '(a photo)';

/**
 * The largest size of a photo within `maxBytes` (Telegram lists its sizes
 * smallest first; a size without `file_size` is taken as fitting), or null.
 */
export function photoToFetch(photo: TelegramPhotoSize[] | undefined, maxBytes: number): TelegramPhotoSize | null {
  if (photo === undefined) return null;
  const fitting = photo.filter((size) => size.file_size === undefined || size.file_size <= maxBytes);
  return fitting.at(-1) ?? null;
}

/**
 * The agent's conversation keys for a Telegram message: a private chat is the
 * user's own conversation; a group's members share the group's (`roomId`),
 * each turn labelled with its sender. A photo's text is its caption (the
 * photo itself is fetched by the connector). Null for what the agent does
 * not answer (no text or photo, or sent by a bot).
 */
export function inboundFromUpdate(update: TelegramUpdate): { chatId: number; message: InboundMessage } | null {
  const message = update.message;
  if (message === undefined || message.from?.is_bot) return null;
  const hasPhoto = message.photo !== undefined && message.photo.length > 0;
  const text = typeof message.text === 'string' ? message.text : (message.caption ?? '');
  if (text.trim() === '' && !hasPhoto) return null;
  const content = text.trim() === '' ? uncaptionedPhotoText : text;
  const sender = message.from?.id ?? message.chat.id;
  const userId = `telegram:${sender}`;
  if (message.chat.type === 'private') return { chatId: message.chat.id, message: { userId, content } };
  return { chatId: message.chat.id, message: { userId, roomId: `telegram:${message.chat.id}`, content } };
}
