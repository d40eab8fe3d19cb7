import type { Client, Message } from 'discord.js';
import { messageLimits } from '../../schemas/messages.js';
import { fetchImages, uncaptionedImageText, withImages, type PlatformFile } from '../inbound-images.js';
import type { InboundMessage, InboundReply, PlatformContext, TakenItem } from '../platform.js';
import { answerTaken } from '../taken-items.js';
import { describeDiscordFailure, loadDiscord } from './client.js';
import type { DiscordSettings } from './settings.js';
import { splitMessage } from './split-message.js';

/** Discord shows "typing…" for 10 s after each call; renewed a little before it runs out. */
const typingRenewMs = 8_000;

/** The bot's mention (`<@id>`, or `<@!id>` as older clients wrote a nickname mention) removed from the text. */
export function withoutBotMention(content: string, botUserId: string): string {
  return content.replaceAll(`<@${botUserId}>`, ' ').replaceAll(`<@!${botUserId}>`, ' ').replace(/\s+/g, ' ').trim();
}

/** What the core is asked for a Discord message, or null when the message is not for this bot. */
export function inboundFrom(message: Message, botUserId: string, settings: DiscordSettings): InboundMessage | null {
  // Bots (this one included), system messages (joins, pins) and webhooks are never answered.
  if (message.author.bot || message.system || message.webhookId) return null;
  const direct = !message.inGuild();
  if (direct) {
    if (settings.answerDirectMessages === false) return null;
  } else {
    if (!message.mentions.users.has(botUserId)) return null;
    if (settings.guildIds && !settings.guildIds.includes(message.guildId)) return null;
  }
  const text = withoutBotMention(message.content, botUserId).slice(0, messageLimits.text);
  if (text === '' && message.attachments.size === 0) return null;
  const inbound: InboundMessage = {
    userId: `discord:${message.author.id}`,
    content: text === '' ? uncaptionedImageText : text,
    // A thread is a channel of its own in Discord: its id names it, as a direct message's channel does.
    replyTarget: message.channelId,
  };
  if (!direct) inbound.roomId = `discord:${message.channelId}`;
  return inbound;
}

/** A message's attachments as files to fetch (Discord's CDN URLs are signed: no token goes with them). */
export function filesOf(message: Message): PlatformFile[] {
  return [...message.attachments.values()].map((attachment) => ({
    url: attachment.url,
    ...(attachment.contentType ? { mediaType: attachment.contentType } : {}),
    sizeBytes: attachment.size,
  }));
}

/** Shows "typing…" in the message's channel until the returned function is called. */
function keepTyping(message: Message, context: PlatformContext): () => void {
  const send = () => {
    if (!('sendTyping' in message.channel)) return;
    message.channel.sendTyping().catch((error: unknown) => {
      context.logger.debug({ reason: describeDiscordFailure(error) }, 'discord typing indicator not shown');
    });
  };
  send();
  const timer = setInterval(send, typingRenewMs);
  return () => clearInterval(timer);
}

/** What of a message is recorded with its take: enough to answer it from another instance's client. */
interface TakenMessage {
  channelId: string;
  messageId: string;
  inbound: InboundMessage;
  files: PlatformFile[];
}

/**
 * Answers a message another instance took and left unanswered: the same
 * answer, posted over the REST API as a reply to the message (its Message
 * object lived in the dead instance's gateway cache). False when `signal`
 * aborted first.
 */
async function answerTakenOver(client: Client, taken: TakenItem, context: PlatformContext): Promise<boolean> {
  const { channelId, messageId, inbound, files } = JSON.parse(taken.pending) as TakenMessage;
  const { signal } = taken;
  const fetched = files.length > 0 ? await fetchImages(files, { ...context, signal }) : null;
  const reply = await context.handleMessage(fetched ? withImages(inbound, fetched) : inbound, { signal });
  const { Routes } = await loadDiscord();
  for (const piece of splitMessage(reply.text)) {
    if (signal.aborted) return false;
    if (piece.trim() === '') continue;
    await client.rest.post(Routes.channelMessages(channelId), {
      body: {
        content: piece,
        message_reference: { message_id: messageId, fail_if_not_exists: false },
        allowed_mentions: { parse: [], replied_user: true },
      },
      signal,
    });
  }
  return !signal.aborted;
}

async function answer(message: Message, inbound: InboundMessage, context: PlatformContext, signal: AbortSignal) {
  const stopTyping = keepTyping(message, context);
  let reply: InboundReply;
  try {
    const files = filesOf(message);
    const fetched = files.length > 0 ? await fetchImages(files, { ...context, signal }) : null;
    // A message refused by the limits resolves too, with its short polite text: it is sent like any answer.
    reply = await context.handleMessage(fetched ? withImages(inbound, fetched) : inbound, { signal });
  } finally {
    stopTyping();
  }
  for (const piece of splitMessage(reply.text)) {
    if (signal.aborted) return false;
    if (piece.trim() === '') continue;
    await message.reply({ content: piece, allowedMentions: { parse: [], repliedUser: true } });
  }
  // Images the reply produced, uploaded as attachments of one more reply (Discord takes up to 10 per message).
  const files = [];
  for (const attachment of reply.attachments ?? []) {
    const file = await context.readFile(attachment.fileId);
    if (file !== null) {
      files.push({
        attachment: Buffer.from(file.bytes),
        name: `${attachment.fileId}.${file.mediaType.replace('image/', '')}`,
      });
    }
  }
  if (signal.aborted) return false;
  if (files.length > 0) {
    await message.reply({ files, allowedMentions: { parse: [], repliedUser: true } });
  }
  context.markEvent();
  return true;
}

/**
 * Answers the client's messages until `stop`; each message is handled on its
 * own, as the core's limits allow, once recorded by its id with this
 * instance's claim (docs/platform-input.md): a message the gateway
 * dispatches again (a resumed session) is answered once, and one whose
 * instance died while answering it is taken over by the next holder.
 */
export function answerMessages(
  client: Client,
  settings: DiscordSettings,
  context: PlatformContext,
  signal: AbortSignal,
): { stop(): void } {
  const onMessage = (message: Message) => {
    const botUserId = client.user?.id;
    if (!botUserId || signal.aborted) return;
    const inbound = inboundFrom(message, botUserId, settings);
    if (inbound === null) return;
    context.markEvent();
    const pending: TakenMessage = {
      channelId: message.channelId,
      messageId: message.id,
      inbound,
      files: filesOf(message),
    };
    void (async () => {
      const taken = await context.items.take(message.id, JSON.stringify(pending));
      if (taken === null) return;
      const answering = AbortSignal.any([signal, taken.signal]);
      await answerTaken(taken, async () => {
        try {
          return await answer(message, inbound, context, answering);
        } catch (error) {
          if (answering.aborted) return false;
          context.logger.warn(
            { messageId: message.id, reason: describeDiscordFailure(error) },
            'discord message not answered',
          );
          return true;
        }
      });
    })().catch((error: unknown) => {
      if (signal.aborted) return;
      context.logger.warn(
        { messageId: message.id, reason: describeDiscordFailure(error) },
        'discord message not taken',
      );
    });
  };
  context.items.answerTakenOver(async (taken) => {
    try {
      return await answerTakenOver(client, taken, context);
    } catch (error) {
      if (taken.signal.aborted) return false;
      context.logger.warn(
        { messageId: taken.itemId, reason: describeDiscordFailure(error) },
        'discord message not answered',
      );
      return true;
    }
  });
  client.on('messageCreate', onMessage);
  return { stop: () => client.off('messageCreate', onMessage) };
}
