import {
  PlatformCredentialsRejected,
  type InboundMessage,
  type TakenItem,
  type PlatformContext,
  type PlatformDefinition,
  type PlatformInboundRequest,
  type PlatformInboundResponse,
} from '../platform.js';
import { fetchImages, withImages, type PlatformFile } from '../inbound-images.js';
import { answerTaken } from '../taken-items.js';
import { decideSlackEvent, escapeSlackText, parseSlackTarget, type SlackReplyTarget } from './events.js';
import { slackSecretsSchema, slackSettingsSchema, type SlackSecrets, type SlackSettings } from './settings.js';
import { verifySlackSignature } from './signature.js';
import { createSlackWebClient, defaultSlackApiUrl, describeSlackFailure, isRejectedToken } from './web-client.js';

/**
 * Slack over the Events API: Slack posts each event to
 * /v1/platforms/slack/{agentId}/events, any instance serves it. The event is
 * recorded by its event_id with this instance's claim, then acknowledged
 * (Slack retries what is not acknowledged within three seconds; a retry that
 * reaches any instance finds the record and is not answered again) and
 * answered in the background with chat.postMessage.
 *
 * Bolt's App is not used for dispatch: it is built around one process serving
 * one app through its own receiver, while here the core routes each request to
 * the agent it belongs to. Bolt's request verification and the Web API client
 * it ships are used as they are.
 */

function problem(status: number, title: string, detail: string): PlatformInboundResponse {
  return {
    status,
    headers: { 'content-type': 'application/problem+json' },
    body: { type: 'about:blank', title, status, detail },
  };
}

/**
 * Whether the bot token may go with a request for a shared file: only to
 * Slack's file host over https, or to the Web API's own origin when the
 * operator pointed the connector elsewhere (AGENTD_SLACK_API_URL). A file URL
 * anywhere else is not fetched: the token never leaves for another host.
 */
function isSlackFileHost(url: URL, apiBaseUrl: string | undefined): boolean {
  if (url.protocol === 'https:' && url.hostname === 'files.slack.com') return true;
  return url.origin === new URL(apiBaseUrl ?? defaultSlackApiUrl).origin;
}

/** What of an event is recorded with its take: enough to answer it on another instance. */
interface TakenEvent {
  message: InboundMessage;
  reply: SlackReplyTarget;
  files: PlatformFile[];
}

/** Answers an event; false when `signal` aborted first (the connector stopped, or the claim was lost). */
async function answer(
  { message, reply: target, files: shared }: TakenEvent,
  botToken: string,
  context: PlatformContext,
  signal: AbortSignal,
): Promise<boolean> {
  // Shared files are private to the workspace: fetched with the bot token (the files:read scope).
  const fetched =
    shared.length > 0
      ? await fetchImages(shared, context, {
          headers: { authorization: `Bearer ${botToken}` },
          withHeaders: (url) => isSlackFileHost(url, context.apiBaseUrl),
        })
      : { images: [], unreadable: false };
  // A limited message resolves too, with the short polite text: it is posted like any answer.
  const reply = await context.handleMessage(withImages(message, fetched), { signal });
  const attachments = reply.attachments ?? [];
  if (signal.aborted) return false;
  if (reply.text.trim() === '' && attachments.length === 0) return true;
  const client = await createSlackWebClient(botToken, context.apiBaseUrl, context.logger);
  if (reply.text.trim() !== '') {
    await client.chat.postMessage({
      channel: target.channel,
      text: escapeSlackText(reply.text),
      ...(target.threadTs ? { thread_ts: target.threadTs } : {}),
    });
  }
  // Images the reply produced: uploaded into the same conversation (files.getUploadURLExternal, the upload,
  // files.completeUploadExternal; the app needs the files:write scope).
  const files = [];
  for (const attachment of attachments) {
    const file = await context.readFile(attachment.fileId);
    if (file !== null) {
      files.push({
        file: Buffer.from(file.bytes),
        filename: `${attachment.fileId}.${file.mediaType.replace('image/', '')}`,
      });
    }
  }
  if (signal.aborted) return false;
  if (files.length > 0) {
    await client.filesUploadV2({
      channel_id: target.channel,
      file_uploads: files,
      ...(target.threadTs ? { thread_ts: target.threadTs } : {}),
    } as Parameters<typeof client.filesUploadV2>[0]);
  }
  context.markEvent();
  return true;
}

/** Answers a taken event and settles it; a failure is logged (the event is not tried again). */
function answerInBackground(taken: TakenItem, event: TakenEvent, botToken: string, context: PlatformContext): void {
  answerTaken(taken, async () => {
    try {
      return await answer(event, botToken, context, taken.signal);
    } catch (error) {
      if (taken.signal.aborted) return false;
      context.logger.warn({ eventId: taken.itemId, reason: describeSlackFailure(error) }, 'slack event not answered');
      return true;
    }
  }).catch((error: unknown) => {
    context.logger.warn({ eventId: taken.itemId, reason: describeSlackFailure(error) }, 'slack event not settled');
  });
}

function missingSecrets(secrets: SlackSecrets): string[] {
  return (['botToken', 'signingSecret'] as const).filter((name) => !secrets[name]);
}

export function createSlackPlatform(): PlatformDefinition<typeof slackSettingsSchema, typeof slackSecretsSchema> {
  return {
    type: 'slack',
    description:
      "A Slack app over the Events API: answers mentions in channels (in a thread) and direct messages. Point the app's Event Subscriptions Request URL at /v1/platforms/slack/{agentId}/events.",
    settingsSchema: slackSettingsSchema,
    secretsSchema: slackSecretsSchema,

    runsOnLease: () => false,
    // Only the operator's API address (PlatformContext.apiBaseUrl) decides where the secrets go, never the settings.
    secretDestination: () => null,

    async start(_settings: SlackSettings, secrets: SlackSecrets, context: PlatformContext) {
      const missing = missingSecrets(secrets);
      if (missing.length > 0) {
        throw new PlatformCredentialsRejected(`Slack needs ${missing.map((name) => `secrets.${name}`).join(' and ')}`);
      }
      const client = await createSlackWebClient(secrets.botToken!, context.apiBaseUrl, context.logger);
      try {
        await client.auth.test();
      } catch (error) {
        if (isRejectedToken(error)) {
          throw new PlatformCredentialsRejected(`Slack rejected the bot token: ${describeSlackFailure(error)}`);
        }
        throw new Error(`Slack auth.test failed: ${describeSlackFailure(error)}`);
      }
      // Nothing is held open: events arrive as requests, served by handleInbound. An event another instance took
      // and left unanswered (it died) is answered here when this instance takes it over.
      context.items.answerTakenOver(async (taken) => {
        try {
          return await answer(JSON.parse(taken.pending) as TakenEvent, secrets.botToken!, context, taken.signal);
        } catch (error) {
          if (taken.signal.aborted) return false;
          context.logger.warn(
            { eventId: taken.itemId, reason: describeSlackFailure(error) },
            'slack event not answered',
          );
          return true;
        }
      });
      return { stop: async () => undefined };
    },

    // Messages carry their own reply target (channel and thread); this serves those that did not: a channel
    // mention's room is its channel, a direct message's user is reached by its id (Slack opens the app's DM).
    replyTarget({ userId, roomId }) {
      const match = /^slack:[^:]+:([A-Z0-9]+)$/.exec(roomId ?? userId ?? '');
      return match ? (match[1] as string) : null;
    },

    async postText(target: string, text: string, _settings: SlackSettings, secrets: SlackSecrets, context) {
      if (!secrets.botToken) throw new Error('Slack needs secrets.botToken');
      const client = await createSlackWebClient(secrets.botToken, context.apiBaseUrl, context.logger);
      const { channel, threadTs } = parseSlackTarget(target);
      try {
        await client.chat.postMessage({
          channel,
          text: escapeSlackText(text),
          ...(threadTs ? { thread_ts: threadTs } : {}),
        });
      } catch (error) {
        throw new Error(`Slack refused the message: ${describeSlackFailure(error)}`);
      }
    },

    async handleInbound(
      request: PlatformInboundRequest,
      settings: SlackSettings,
      secrets: SlackSecrets,
      context: PlatformContext,
    ): Promise<PlatformInboundResponse> {
      if (request.path !== '/events') return problem(404, 'Not found', 'Slack events are posted to /events.');
      if (missingSecrets(secrets).length > 0) {
        return problem(
          401,
          'Unauthorized',
          'This agent has no Slack signing secret and bot token to check requests with.',
        );
      }
      const verified = verifySlackSignature(request, secrets.signingSecret!, context.clock.now());
      if (!verified.ok) {
        context.logger.warn({ reason: verified.reason }, 'slack request refused');
        return problem(401, 'Unauthorized', verified.reason);
      }

      let body: unknown;
      try {
        body = JSON.parse(request.rawBody.toString('utf8'));
      } catch {
        return problem(400, 'Malformed JSON body', 'The request body is not valid JSON.');
      }
      const decision = decideSlackEvent(body, { replyInThread: settings.replyInThread ?? true });
      switch (decision.kind) {
        case 'invalid': {
          // `problems` (JSON pointers into the body) are what the core turns into validation_failed errors.
          const refused = problem(400, 'Request validation failed', decision.detail);
          return {
            ...refused,
            body: { ...(refused.body as object), problems: [{ path: decision.path, message: decision.detail }] },
          };
        }
        case 'challenge':
          return { status: 200, headers: { 'content-type': 'text/plain' }, body: decision.challenge };
        case 'ignore':
          if (decision.eventId) context.markEvent();
          context.logger.debug({ reason: decision.reason }, 'slack event ignored');
          return { status: 200 };
      }

      const retry = request.headers['x-slack-retry-num'];
      const event: TakenEvent = { message: decision.message, reply: decision.reply, files: decision.files };
      // Recorded (committed) before the acknowledgement: a retry that reaches any instance finds it.
      const taken = await context.items.take(decision.eventId, JSON.stringify(event));
      if (taken === null) {
        context.logger.info({ eventId: decision.eventId, retry }, 'slack event already taken');
        return { status: 200 };
      }
      context.markEvent();
      answerInBackground(taken, event, secrets.botToken!, context);
      return { status: 200 };
    },
  };
}

/** The Slack connector the platform catalog lists. */
export const slackPlatform = createSlackPlatform();
