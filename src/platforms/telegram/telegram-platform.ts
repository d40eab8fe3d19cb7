import { createHmac, timingSafeEqual } from 'node:crypto';
import { abortableDelay } from '../../providers/abortable-delay.js';
import { Type } from '@sinclair/typebox';
import type { Api, GrammyError, HttpError } from 'grammy';
import {
  PlatformCredentialsRejected,
  type PlatformConnection,
  type PlatformContext,
  type PlatformDefinition,
  type InboundReply,
  type PlatformInboundResponse,
} from '../platform.js';
import { answerTaken } from '../taken-items.js';
import { inboundFromUpdate, photoToFetch, splitForTelegram, type TelegramUpdate } from './telegram-messages.js';

const settingsSchema = Type.Object(
  {
    pollTimeoutSeconds: Type.Integer({
      minimum: 1,
      maximum: 50,
      default: 25,
      description: 'How long one getUpdates call waits for updates (long polling).',
    }),
  },
  { additionalProperties: false },
);

const secretsSchema = Type.Object(
  {
    botToken: Type.Optional(
      Type.String({ minLength: 1, description: 'The token @BotFather gave the bot (`123456:ABC…`).' }),
    ),
  },
  { additionalProperties: false },
);

let grammy: typeof import('grammy') | undefined;

/** grammY, loaded when a Telegram connector first needs it: other instances do not pay for it at start. */
async function loadGrammy(): Promise<typeof import('grammy')> {
  grammy ??= await import('grammy');
  return grammy;
}

/** grammY's error classes; before grammY is loaded no call was made, so no error can be one of them. */
const isGrammyError = (error: unknown): error is GrammyError =>
  grammy !== undefined && error instanceof grammy.GrammyError;
const isHttpError = (error: unknown): error is HttpError => grammy !== undefined && error instanceof grammy.HttpError;

/** Telegram's own API, unless the operator points connectors elsewhere (AGENTD_TELEGRAM_API_URL). */
const defaultApiRoot = 'https://api.telegram.org';
/** How often the typing indicator is sent again: Telegram shows it for about 5 s. */
const typingEveryMs = 4_000;
const pollRetryMinMs = 500;
const pollRetryMaxMs = 30_000;

/**
 * The webhook's secret_token, derived from the bot token: every instance
 * computes the same one without storing it, and it changes with the token.
 * (Telegram allows 1–256 characters of A–Z, a–z, 0–9, _ and -.)
 */
export function webhookSecretFor(botToken: string): string {
  return createHmac('sha256', botToken).update('agentd telegram webhook').digest('hex');
}

/** The bot token never appears in what is logged or reported: Telegram puts it in every URL. */
function scrubbed(text: string, token: string): string {
  return token ? text.split(token).join('<bot token>') : text;
}

function rejected(error: unknown): boolean {
  return isGrammyError(error) && [401, 403, 404].includes(error.error_code);
}

function describeFault(error: unknown, token: string): string {
  if (isGrammyError(error)) return scrubbed(`Telegram answered ${error.error_code}: ${error.description}`, token);
  if (isHttpError(error)) return scrubbed(`Telegram is unreachable (${error.message})`, token);
  return scrubbed(`Telegram connector failed: ${error instanceof Error ? error.message : String(error)}`, token);
}

function credentialsRejected(error: GrammyError): PlatformCredentialsRejected {
  return new PlatformCredentialsRejected(
    `Telegram rejected the bot token (${error.error_code} ${error.description}); set a valid secrets.botToken on the telegram platform.`,
  );
}

/** grammY types signals with the abort-controller package's class; Node's own are what it receives at run time. */
type GrammySignal = NonNullable<Parameters<Api['getMe']>[0]>;
const forGrammy = (signal: AbortSignal) => signal as unknown as GrammySignal;

/** Errors of a call written to a kept-alive connection the server had just closed: no answer was read. */
const staleConnectionCodes = new Set(['ECONNRESET', 'EPIPE']);
/** The pool may hold a few connections the server dropped at once; past this many, something else is wrong. */
const maximumStaleRetries = 3;

function onStaleConnection(error: unknown): boolean {
  const cause = isHttpError(error) ? (error.error as { code?: unknown } | null) : null;
  return typeof cause?.code === 'string' && staleConnectionCodes.has(cause.code);
}

/**
 * grammY keeps connections to the Bot API alive between calls. A call made
 * just as the server closes an idle one (a reply after a long model call)
 * fails with a reset before any answer, and the reply would be lost: such a
 * call is sent again, on another connection (the retry Node's http
 * documentation gives for a reused socket). A reset after the server took
 * the call is rare enough that a duplicate beats a lost reply.
 */
async function apiFor(token: string, context: Pick<PlatformContext, 'apiBaseUrl'>): Promise<Api> {
  const { Api } = await loadGrammy();
  const api = new Api(token, { apiRoot: context.apiBaseUrl ?? defaultApiRoot });
  api.config.use(async (call, method, payload, signal) => {
    for (let retries = 0; ; retries += 1) {
      try {
        return await call(method, payload, signal);
      } catch (error) {
        if (!onStaleConnection(error) || signal?.aborted || retries === maximumStaleRetries) throw error;
      }
    }
  });
  return api;
}

/** Photos sent to the bot are read up to this size (the core's own cap applies after). */
const maxPhotoBytes = 20 * 1_048_576;

/**
 * The bytes of the largest size of a message's photo, downloaded from
 * Telegram's file storage (getFile, then /file/bot<token>/<path>): the
 * configured Bot API, not a user-given address.
 */
async function downloadPhoto(api: Api, update: TelegramUpdate, token: string, context: PlatformContext) {
  const size = photoToFetch(update.message?.photo, maxPhotoBytes);
  if (size === null) return null;
  const file = await api.getFile(size.file_id, forGrammy(context.signal));
  if (file.file_path === undefined) return null;
  const root = context.apiBaseUrl ?? defaultApiRoot;
  const response = await fetch(`${root}/file/bot${token}/${file.file_path}`, { signal: context.signal });
  if (!response.ok) throw new Error(`Telegram file download answered ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** Sends each image the reply produced as a photo (sendPhoto, uploaded: the file route needs a key). */
async function sendPhotos(
  api: Api,
  chatId: number | string,
  attachments: InboundReply['attachments'],
  context: PlatformContext,
) {
  const { InputFile } = await loadGrammy();
  for (const attachment of attachments ?? []) {
    const file = await context.readFile(attachment.fileId);
    if (file === null) continue;
    const name = `${attachment.fileId}.${file.mediaType.replace('image/', '')}`;
    await api.sendPhoto(chatId, new InputFile(file.bytes, name), undefined, forGrammy(context.signal));
  }
}

/**
 * Answers one update through the agent: the typing indicator while the model
 * works, then the reply, split at Telegram's limit. Failures to send are
 * logged (a user who blocked the bot is no reason to stop), and a rejected
 * token is reported. False when `signal` aborted first (the connector
 * stopped, or the item's claim was lost): nothing more is sent, and a live
 * instance takes the update over unless it is answered already.
 */
async function answerUpdate(
  api: Api,
  update: TelegramUpdate,
  token: string,
  context: PlatformContext,
  signal: AbortSignal,
): Promise<boolean> {
  const inbound = inboundFromUpdate(update);
  if (inbound === null) return true;
  context.markEvent();
  const { chatId, message } = inbound;
  const working = new AbortController();
  const stopTyping = () => working.abort();
  signal.addEventListener('abort', stopTyping, { once: true });
  const typing = (async () => {
    while (!working.signal.aborted) {
      // Not cut short when the reply is ready: it completes before the reply is sent, so typing never shows after it.
      await api.sendChatAction(chatId, 'typing', undefined, forGrammy(signal)).catch(() => undefined);
      await abortableDelay(typingEveryMs, working.signal);
    }
  })();
  try {
    const photo = await downloadPhoto(api, update, token, context);
    const reply = await context.handleMessage(photo === null ? message : { ...message, images: [photo] }, {
      signal: signal,
    });
    working.abort();
    await typing;
    if (reply.text !== '' || !reply.attachments?.length) {
      for (const part of splitForTelegram(reply.text))
        await api.sendMessage(chatId, part, undefined, forGrammy(signal));
    }
    await sendPhotos(api, chatId, reply.attachments, context);
    return true;
  } catch (error) {
    if (signal.aborted) return false;
    if (rejected(error)) {
      context.reportFailure(credentialsRejected(error as GrammyError));
      return false;
    }
    context.logger.warn(
      {
        agentId: context.agentId,
        platform: 'telegram',
        updateId: update.update_id,
        error: describeFault(error, token),
      },
      'telegram update not answered',
    );
    return true;
  } finally {
    working.abort();
    signal.removeEventListener('abort', stopTyping);
  }
}

/**
 * Long polling: getUpdates with the offset after the last update read. Each
 * update is recorded with this instance's claim (docs/platform-input.md)
 * before it is answered, then the position moves past it: an update read
 * twice (a lease lost while a poll was in flight) is answered once, and one
 * whose instance died while answering it is taken over once its claim runs out.
 */
async function poll(api: Api, token: string, timeoutSeconds: number, context: PlatformContext): Promise<void> {
  let failures = 0;
  while (!context.signal.aborted) {
    try {
      const last = await context.positions.last();
      const updates = (await api.getUpdates(
        { ...(last !== null ? { offset: last + 1 } : {}), timeout: timeoutSeconds, allowed_updates: ['message'] },
        forGrammy(context.signal),
      )) as TelegramUpdate[];
      failures = 0;
      for (const update of updates) {
        if (context.signal.aborted) return;
        const taken = await context.items.take(String(update.update_id), JSON.stringify(update));
        await context.positions.claim(update.update_id);
        if (taken !== null) await answerTaken(taken, () => answerUpdate(api, update, token, context, taken.signal));
      }
    } catch (error) {
      // A failed poll, or the database out of reach while taking or settling an update: polled again after a pause.
      if (context.signal.aborted) return;
      if (rejected(error)) {
        context.reportFailure(credentialsRejected(error as GrammyError));
        return;
      }
      failures += 1;
      const delay = Math.min(pollRetryMaxMs, pollRetryMinMs * 2 ** Math.min(failures - 1, 10));
      context.logger.warn(
        { agentId: context.agentId, platform: 'telegram', error: describeFault(error, token), retryInMs: delay },
        'telegram poll failed',
      );
      await abortableDelay(delay, context.signal);
    }
  }
}

/** Answers an update taken and left unanswered (its instance died, or its connector stopped) once taken over. */
function answerTakenOver(api: Api, token: string, context: PlatformContext): void {
  context.items.answerTakenOver((taken) =>
    answerUpdate(api, JSON.parse(taken.pending) as TelegramUpdate, token, context, taken.signal),
  );
}

export const telegramPlatform: PlatformDefinition<typeof settingsSchema, typeof secretsSchema> = {
  type: 'telegram',
  description:
    'A Telegram bot (grammY): long polling on one instance at a time, or a webhook when the server has a public URL ' +
    '(AGENTD_PUBLIC_BASE_URL). Private chats are the user’s conversation (`userId` telegram:<user id>); groups share ' +
    'one (`roomId` telegram:<chat id>).',
  settingsSchema,
  secretsSchema,
  runsOnLease: (_settings, context) => context.publicBaseUrl === undefined,
  // Only the operator's API address (PlatformContext.apiBaseUrl) decides where the secrets go, never the settings.
  secretDestination: () => null,

  async start(settings, secrets, context): Promise<PlatformConnection> {
    const token = secrets.botToken;
    if (token === undefined) {
      throw new PlatformCredentialsRejected(
        'Telegram has no bot token: set secrets.botToken on the telegram platform.',
      );
    }
    const api = await apiFor(token, context);
    try {
      await api.getMe(forGrammy(context.signal));
      if (context.publicBaseUrl !== undefined) {
        const url = `${context.publicBaseUrl}/v1/platforms/telegram/${context.agentId}/webhook`;
        await api.setWebhook(
          url,
          { secret_token: webhookSecretFor(token), allowed_updates: ['message'] },
          forGrammy(context.signal),
        );
        // Every instance serves the webhook, and any of them takes over an update another left unanswered.
        answerTakenOver(api, token, context);
        return { stop: async () => undefined };
      }
      // getUpdates is refused while a webhook is set (an earlier run with a public URL).
      await api.deleteWebhook(undefined, forGrammy(context.signal));
    } catch (error) {
      if (rejected(error)) throw credentialsRejected(error as GrammyError);
      throw new Error(describeFault(error, token));
    }
    answerTakenOver(api, token, context);
    const polling = poll(api, token, settings.pollTimeoutSeconds, context);
    return {
      stop: async () => {
        await polling;
      },
    };
  },

  // A group's messages carry its chat as the room; a private chat's id is its user's id (telegram-messages.ts).
  replyTarget({ userId, roomId }) {
    const key = roomId ?? userId;
    const match = key === null ? null : /^telegram:(-?[0-9]+)$/.exec(key);
    return match ? (match[1] as string) : null;
  },

  async postText(target, text, _settings, secrets, context): Promise<void> {
    const token = secrets.botToken;
    if (token === undefined)
      throw new Error('Telegram has no bot token: set secrets.botToken on the telegram platform.');
    // A chat id is a number (negative for groups and channels); `@name` addresses a public channel.
    const chatId = /^-?[0-9]+$/.test(target) ? Number(target) : target;
    const api = await apiFor(token, context);
    try {
      for (const part of splitForTelegram(text))
        await api.sendMessage(chatId, part, undefined, forGrammy(context.signal));
    } catch (error) {
      throw new Error(describeFault(error, token));
    }
  },

  async handleInbound(request, _settings, secrets, context): Promise<PlatformInboundResponse> {
    if (request.path !== '/webhook') return { status: 404 };
    const token = secrets.botToken;
    const sent = request.headers['x-telegram-bot-api-secret-token'];
    if (token === undefined || typeof sent !== 'string') return { status: 401 };
    const expected = Buffer.from(webhookSecretFor(token));
    const given = Buffer.from(sent);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { status: 401 };
    let update: TelegramUpdate;
    try {
      update = JSON.parse(request.rawBody.toString('utf8')) as TelegramUpdate;
    } catch {
      return { status: 400 };
    }
    if (typeof update?.update_id !== 'number') return { status: 400 };
    // Telegram sends an update again until it gets a 2xx: recorded (committed) before the 200, answered once.
    const taken = await context.items.take(String(update.update_id), JSON.stringify(update));
    if (taken === null) return { status: 200, body: { ok: true } };
    // Answered in the background: Telegram waits for this response before sending the next update.
    void apiFor(token, context)
      .then((api) => answerTaken(taken, () => answerUpdate(api, update, token, context, taken.signal)))
      .catch((error: unknown) => {
        context.logger.warn(
          {
            agentId: context.agentId,
            platform: 'telegram',
            updateId: update.update_id,
            error: describeFault(error, token),
          },
          'telegram update not settled',
        );
      });
    return { status: 200, body: { ok: true } };
  },
};
