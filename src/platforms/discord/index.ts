import {
  PlatformCredentialsRejected,
  type PlatformConnection,
  type PlatformContext,
  type PlatformDefinition,
} from '../platform.js';
import {
  defaultDiscordApiUrl,
  describeDiscordFailure,
  isDisallowedIntent,
  isRejectedToken,
  loadDiscord,
  logClientTrouble,
} from './client.js';
import { answerMessages } from './messages.js';
import { splitMessage } from './split-message.js';
import { discordSecretsSchema, discordSettingsSchema, type DiscordSecrets, type DiscordSettings } from './settings.js';

/**
 * Discord through its gateway with discord.js: the bot holds one WebSocket
 * connection, so one instance runs it at a time (under the core's lease).
 * Messages that mention the bot, and direct messages, are answered with a
 * reply to the message.
 */

/** How long connecting (REST gateway lookup, HELLO, IDENTIFY, READY) may take before it counts as a network fault. */
const connectTimeoutMs = 30_000;

const disallowedIntentReason =
  'Discord refused the Message Content intent: turn it on for the bot in the Developer Portal (Bot → Privileged Gateway Intents).';

/**
 * Tells the core that the running connector failed for good. `reportFailure`
 * is being added to PlatformContext by the platforms layer; where the context
 * has none yet, the failure is only logged (above).
 */
function reportFailure(context: PlatformContext, failure: Error): void {
  const report = (context as PlatformContext & { reportFailure?: (error: unknown) => void }).reportFailure;
  if (typeof report === 'function') report(failure);
}

async function start(
  settings: DiscordSettings,
  secrets: DiscordSecrets,
  context: PlatformContext,
): Promise<PlatformConnection> {
  if (context.signal.aborted) throw new Error('Discord connection stopped before it started');
  const botToken = secrets.botToken;
  if (!botToken) throw new PlatformCredentialsRejected('Discord needs secrets.botToken');
  const { Client, Events, GatewayIntentBits, Partials } = await loadDiscord();
  const client = new Client({
    intents: [
      GatewayIntentBits.Guilds,
      GatewayIntentBits.GuildMessages,
      GatewayIntentBits.DirectMessages,
      GatewayIntentBits.MessageContent,
    ],
    // Direct message channels are not cached before their first message; without this their messages are dropped.
    partials: [Partials.Channel],
    // The model's text must never ping @everyone, roles or users by accident.
    allowedMentions: { parse: [], repliedUser: true },
    rest: { api: context.apiBaseUrl ?? defaultDiscordApiUrl, retries: 1, timeout: 10_000 },
  });
  const stopping = new AbortController();
  // An 'error' event without a listener would throw out of the emitter and end the process.
  client.on(Events.Error, (error) => logClientTrouble(context.logger, 'client error', error));
  client.on(Events.ShardError, (error) => logClientTrouble(context.logger, 'gateway error', error));
  let connected = false;
  client.on(Events.ShardDisconnect, (event) => {
    // While connecting, the same close ends login and is reported by start's own error.
    if (!connected || stopping.signal.aborted) return;
    const failure =
      event.code === 4004
        ? new PlatformCredentialsRejected('Discord rejected the bot token while connected (gateway close 4004)')
        : event.code === 4014
          ? new PlatformCredentialsRejected(disallowedIntentReason)
          : new Error(`Discord closed the gateway for good (code ${event.code})`);
    context.logger.error({ code: event.code }, 'discord gateway closed for good');
    reportFailure(context, failure);
  });

  const abortStart = () => stopping.abort();
  context.signal.addEventListener('abort', abortStart, { once: true });
  // Listening before login: a message the gateway dispatches as the client turns ready is answered, not dropped.
  const answering = answerMessages(client, settings, context, stopping.signal);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.login(botToken),
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error('Discord did not get ready in time')), connectTimeoutMs);
        stopping.signal.addEventListener('abort', () => reject(new Error('Discord connection stopped')), {
          once: true,
        });
      }),
    ]);
  } catch (error) {
    answering.stop();
    await client.destroy().catch(() => undefined);
    context.signal.removeEventListener('abort', abortStart);
    if (isRejectedToken(error)) {
      throw new PlatformCredentialsRejected(`Discord rejected the bot token: ${describeDiscordFailure(error)}`);
    }
    if (isDisallowedIntent(error)) {
      // Reported like refused credentials: the bot cannot work until its owner acts, and the reason says how.
      throw new PlatformCredentialsRejected(disallowedIntentReason);
    }
    throw new Error(
      `Discord connection failed: ${error instanceof Error && !('code' in error) ? error.message : describeDiscordFailure(error)}`,
    );
  } finally {
    clearTimeout(timer);
  }

  connected = true;
  context.logger.info({ botUserId: client.user?.id }, 'discord connected');
  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      context.signal.removeEventListener('abort', abortStart);
      stopping.abort();
      answering.stop();
      await client.destroy();
      context.logger.info('discord disconnected');
    })();
    return stopped;
  };
  context.signal.addEventListener('abort', () => void stop().catch(() => undefined), { once: true });
  return { stop };
}

/**
 * Posts to a channel over Discord's REST API (no gateway connection needed,
 * so any instance can): one message per piece of Discord's length limit,
 * mentions never parsed.
 */
async function postText(
  target: string,
  text: string,
  _settings: DiscordSettings,
  secrets: DiscordSecrets,
  context: PlatformContext,
): Promise<void> {
  const botToken = secrets.botToken;
  if (!botToken) throw new Error('Discord needs secrets.botToken');
  const { REST, Routes } = await loadDiscord();
  const rest = new REST({ api: context.apiBaseUrl ?? defaultDiscordApiUrl, retries: 1, timeout: 10_000 }).setToken(
    botToken,
  );
  try {
    for (const piece of splitMessage(text)) {
      await rest.post(Routes.channelMessages(target), {
        body: { content: piece, allowed_mentions: { parse: [] } },
        signal: context.signal,
      });
    }
  } catch (error) {
    throw new Error(`Discord refused the message: ${describeDiscordFailure(error)}`);
  }
}

export const discordPlatform: PlatformDefinition<typeof discordSettingsSchema, typeof discordSecretsSchema> = {
  type: 'discord',
  description:
    'A Discord bot over the gateway: answers messages that mention it in servers, and direct messages. Needs the Message Content intent enabled for the bot.',
  settingsSchema: discordSettingsSchema,
  secretsSchema: discordSecretsSchema,
  runsOnLease: () => true,
  // Only the operator's API address (PlatformContext.apiBaseUrl) decides where the secrets go, never the settings.
  secretDestination: () => null,
  start,
  postText,
  // Messages carry their channel as their reply target; this serves those that did not: a server message's
  // room is its channel (a direct message's channel is not named by its user's id).
  replyTarget({ roomId }) {
    const match = roomId === null ? null : /^discord:([0-9]{1,20})$/.exec(roomId);
    return match ? (match[1] as string) : null;
  },
};
