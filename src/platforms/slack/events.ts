import { messageLimits } from '../../schemas/messages.js';
import { uncaptionedImageText, type PlatformFile } from '../inbound-images.js';
import type { InboundMessage } from '../platform.js';

/**
 * What one Events API request asks of the connector, decided from its parsed
 * body alone (the signature has been checked before). Slack's envelope:
 * https://api.slack.com/apis/events-api#callback-field
 */
export type SlackEventDecision =
  | { kind: 'challenge'; challenge: string }
  | { kind: 'answer'; eventId: string; message: InboundMessage; reply: SlackReplyTarget; files: PlatformFile[] }
  | { kind: 'ignore'; reason: string; eventId?: string }
  | { kind: 'invalid'; path: string; detail: string };

/** Where the answer goes: the conversation and, for a threaded answer, the parent message's `ts`. */
export interface SlackReplyTarget {
  channel: string;
  threadTs?: string;
}

interface SlackEvent {
  type?: unknown;
  subtype?: unknown;
  channel_type?: unknown;
  bot_id?: unknown;
  user?: unknown;
  text?: unknown;
  ts?: unknown;
  thread_ts?: unknown;
  channel?: unknown;
  team?: unknown;
  files?: unknown;
}

/** The part of a Slack file object the connector reads (https://api.slack.com/types/file). */
interface SlackFile {
  mimetype?: unknown;
  size?: unknown;
  url_private?: unknown;
  url_private_download?: unknown;
}

/**
 * The files shared with a message, to fetch with the bot token (files:read).
 * A file with no private URL (an external file, one deleted since) is still
 * listed, without a type, so that the user hears it was not read.
 */
function filesOf(event: SlackEvent): PlatformFile[] {
  if (!Array.isArray(event.files)) return [];
  return (event.files as SlackFile[]).map((file) => {
    const url = isText(file?.url_private_download) ? file.url_private_download : file?.url_private;
    if (!isText(url)) return { url: '' };
    return {
      url,
      ...(isText(file.mimetype) ? { mediaType: file.mimetype } : {}),
      ...(typeof file.size === 'number' ? { sizeBytes: file.size } : {}),
    };
  });
}

/**
 * The `postText` target of a reply: the channel, and `/<thread ts>` for one
 * in a thread (Slack's channel ids never hold a slash).
 */
export function slackReplyTargetText(target: SlackReplyTarget): string {
  return target.threadTs ? `${target.channel}/${target.threadTs}` : target.channel;
}

/** A `postText` target read back: `C0123ABCD` or `C0123ABCD/1712345678.000100`. */
export function parseSlackTarget(target: string): SlackReplyTarget {
  const slash = target.indexOf('/');
  if (slash === -1) return { channel: target };
  return { channel: target.slice(0, slash), threadTs: target.slice(slash + 1) };
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/**
 * Removes the bot's own mention (`<@U0BOT>`), which Slack puts in the text of
 * every `app_mention`; without the bot's id, a mention at the very start.
 */
export function withoutBotMention(text: string, botUserId: string | undefined): string {
  const stripped = botUserId
    ? text.replaceAll(`<@${botUserId}>`, ' ')
    : text.replace(/^\s*<@[A-Z0-9]+(\|[^>]*)?>/, ' ');
  return stripped.replace(/\s+/g, ' ').trim();
}

/**
 * Slack escapes `&`, `<` and `>` in message text (its control sequences use
 * them); the model reads the characters the user typed.
 * https://api.slack.com/reference/surfaces/formatting#escaping
 */
export function unescapeSlackText(text: string): string {
  return text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

/**
 * The reply as Slack text: the same three characters escaped, so that the
 * model's words are shown as written and can never form a control sequence
 * (`<!channel>` would notify everyone in the channel, `<@U…>` a user).
 */
export function escapeSlackText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

export function decideSlackEvent(body: unknown, options: { replyInThread: boolean }): SlackEventDecision {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { kind: 'invalid', path: '', detail: 'The body must be a JSON object.' };
  }
  const envelope = body as Record<string, unknown>;
  if (envelope.type === 'url_verification') {
    return isText(envelope.challenge)
      ? { kind: 'challenge', challenge: envelope.challenge }
      : { kind: 'invalid', path: '/challenge', detail: 'A url_verification request must carry a challenge.' };
  }
  if (envelope.type !== 'event_callback') return { kind: 'ignore', reason: `envelope type ${String(envelope.type)}` };
  const eventId = envelope.event_id;
  const event = envelope.event as SlackEvent | undefined;
  if (!isText(eventId) || typeof event !== 'object' || event === null) {
    return {
      kind: 'invalid',
      path: isText(eventId) ? '/event' : '/event_id',
      detail: 'An event_callback must carry event_id and event.',
    };
  }

  const isMention = event.type === 'app_mention';
  const isDirectMessage = event.type === 'message' && event.channel_type === 'im';
  if (!isMention && !isDirectMessage) return { kind: 'ignore', reason: `event ${String(event.type)}`, eventId };
  // Edits, joins, deletions and the like come as subtypes (a message with files is `file_share`); bots (this
  // one included) carry bot_id.
  if (event.subtype !== undefined && event.subtype !== 'file_share') {
    return { kind: 'ignore', reason: `subtype ${String(event.subtype)}`, eventId };
  }
  if (event.bot_id !== undefined) return { kind: 'ignore', reason: 'a bot message', eventId };
  if (!isText(event.user) || !isText(event.channel) || !isText(event.ts) || typeof event.text !== 'string') {
    return { kind: 'ignore', reason: 'no user, channel, ts or text', eventId };
  }

  const team = isText(envelope.team_id) ? envelope.team_id : isText(event.team) ? event.team : 'unknown';
  const authorizations = Array.isArray(envelope.authorizations) ? envelope.authorizations : [];
  const botUserId = (authorizations[0] as { user_id?: unknown } | undefined)?.user_id;
  const mentionless = withoutBotMention(event.text, isText(botUserId) ? botUserId : undefined);
  const text = unescapeSlackText(mentionless).slice(0, messageLimits.text);
  const files = filesOf(event);
  if (text === '' && files.length === 0) return { kind: 'ignore', reason: 'nothing but the mention', eventId };
  const content = text === '' ? uncaptionedImageText : text;

  const inThread = isText(event.thread_ts);
  const threadTs = inThread ? (event.thread_ts as string) : isMention && options.replyInThread ? event.ts : undefined;
  const reply: SlackReplyTarget = threadTs ? { channel: event.channel, threadTs } : { channel: event.channel };
  const message: InboundMessage = {
    userId: `slack:${team}:${event.user}`,
    content,
    replyTarget: slackReplyTargetText(reply),
  };
  if (isMention) message.roomId = `slack:${team}:${event.channel}`;
  return { kind: 'answer', eventId, message, reply, files };
}
