import { randomUUID } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type {
  InboundMessage,
  InboundReply,
  PlatformContext,
  PlatformDefinition,
  PlatformInboundResponse,
  TakenItem,
} from '../platform.js';
import { valueProblems } from '../../validation-wording.js';

const settingsSchema = Type.Object(
  {
    callbackUrl: Type.Optional(
      Type.String({
        pattern: '^https?://',
        maxLength: 2000,
        description:
          'Where a reply that takes longer than `replyWaitMs` is POSTed (signed like the request); without it, the ' +
          'response waits for the reply.',
      }),
    ),
    replyWaitMs: Type.Integer({
      minimum: 0,
      maximum: 60_000,
      default: 10_000,
      description: 'With a callbackUrl: how long the request waits for the reply before answering 202 (0: always 202).',
    }),
  },
  { additionalProperties: false },
);

const secretsSchema = Type.Object(
  {
    signingSecret: Type.String({
      // A new secret in the `whsec_` base64 form, or the mask of the stored one sent back unchanged.
      pattern: '^(whsec_[A-Za-z0-9+/]{16,}={0,2}|••••.{0,4})$',
      description: 'The Standard Webhooks secret, `whsec_` and base64 (at least 12 random bytes): signs both ways.',
    }),
  },
  { additionalProperties: false },
);

const maxTextLength = 32_000;

/**
 * What a sender POSTs. The message is `text`, as in POST /v1/agents/{id}/messages;
 * `content` is the name it had first, still read so that existing senders keep
 * working, and checked against `text` when both are sent.
 */
const InboundBody = Type.Object(
  {
    userId: Type.String({ minLength: 1, maxLength: 190 }),
    roomId: Type.Optional(Type.String({ minLength: 1, maxLength: 190 })),
    text: Type.Optional(
      Type.String({ minLength: 1, maxLength: maxTextLength, description: 'The message, 1–32,000 characters.' }),
    ),
    content: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: maxTextLength,
        deprecated: true,
        description: 'Deprecated: the former name of `text`, still accepted. Sent with `text`, it must be equal.',
      }),
    ),
  },
  { additionalProperties: false },
);
const inboundBody = TypeCompiler.Compile(InboundBody);
type InboundBodyValue = Static<typeof InboundBody>;

/** The message of a body that passed the schema, or the problem naming the field that is wrong. */
function messageText(body: InboundBodyValue): string | { path: string; message: string } {
  if (body.text !== undefined && body.content !== undefined && body.text !== body.content) {
    return {
      path: '/body/content',
      message: 'differs from text: content is the deprecated name of text, send only text',
    };
  }
  const text = body.text ?? body.content;
  if (text === undefined) return { path: '/body/text', message: 'is required' };
  return text;
}

function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string {
  const value = headers[name];
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}

/** Posts the reply to the callback URL, signed, through the SSRF-safe client. */
async function deliver(
  settings: Static<typeof settingsSchema>,
  webhook: Webhook,
  requestId: string,
  message: Pick<InboundBodyValue, 'userId' | 'roomId'>,
  reply: InboundReply,
  context: PlatformContext,
): Promise<void> {
  const id = `msg_${randomUUID()}`;
  const payload = JSON.stringify({
    type: 'message.reply',
    requestId,
    userId: message.userId,
    roomId: message.roomId ?? null,
    ...replyBody(reply),
  });
  const timestamp = new Date(context.clock.now());
  const response = await context.fetch(settings.callbackUrl as string, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': webhook.sign(id, timestamp, payload),
    },
    body: payload,
    signal: AbortSignal.timeout(10_000),
  });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`the callback answered ${response.status}`);
}

/** The message of a request, as recorded with its take: what another instance answers after a takeover. */
function inboundOf(message: InboundBodyValue, text: string): InboundMessage {
  return {
    userId: `webhook:${message.userId}`,
    ...(message.roomId ? { roomId: `webhook:${message.roomId}` } : {}),
    content: text,
  };
}

/**
 * Answers a message taken over from an instance that died (or failed)
 * while answering it: the reply goes to the callback URL when the entry has
 * one; without one it is only kept in the conversation (the sender's
 * response was lost with that instance).
 */
async function answerTakenOver(
  settings: Static<typeof settingsSchema>,
  webhook: Webhook,
  taken: TakenItem,
  context: PlatformContext,
): Promise<boolean> {
  const inbound = JSON.parse(taken.pending) as InboundMessage;
  const reply = await context.handleMessage(inbound, { signal: taken.signal });
  if (taken.signal.aborted) return false;
  if (settings.callbackUrl !== undefined) {
    const message = {
      userId: inbound.userId.replace(/^webhook:/, ''),
      ...(inbound.roomId ? { roomId: inbound.roomId.replace(/^webhook:/, '') } : {}),
    };
    await deliver(settings, webhook, taken.itemId, message, reply, context);
  }
  return true;
}

/** The reply as senders get it: `text` like a message reply; `reply` is its former name, kept for existing senders. */
function replyBody(reply: InboundReply): { text: string; reply: string; limited: boolean } {
  return { text: reply.text, reply: reply.text, limited: reply.limited };
}

export const webhookPlatform: PlatformDefinition<typeof settingsSchema, typeof secretsSchema> = {
  type: 'webhook',
  description:
    'A generic inbound endpoint, POST /v1/platforms/webhook/{agentId}, signed per Standard Webhooks with ' +
    '`secrets.signingSecret`; body {userId, roomId?, text} (`content`: deprecated name of `text`). The reply ' +
    'comes back in the response as {text, limited} (`reply`: deprecated copy of `text`), or, with a ' +
    '`callbackUrl` and a reply slower than `replyWaitMs`, the response is 202 and the reply is POSTed there, signed.',
  settingsSchema,
  secretsSchema,
  runsOnLease: () => false,
  // The secret signs every reply POSTed to the callback: a new receiver of signed replies is a new destination.
  secretDestination: (settings) => ({ callbackUrl: settings.callbackUrl }),
  // Nothing to hold open: every instance serves the inbound route, and takes over a message another instance
  // took and left unanswered (it died while answering).
  async start(settings, secrets, context) {
    const webhook = new Webhook(secrets.signingSecret);
    context.items.answerTakenOver(async (taken) => {
      try {
        return await answerTakenOver(settings, webhook, taken, context);
      } catch (error) {
        if (taken.signal.aborted) return false;
        context.logger.warn(
          { agentId: context.agentId, platform: 'webhook', error: (error as Error).message },
          'webhook message taken over, not answered',
        );
        return true;
      }
    });
    return { stop: async () => undefined };
  },

  async handleInbound(request, settings, secrets, context): Promise<PlatformInboundResponse> {
    if (request.path !== '') return { status: 404 };
    let webhook: Webhook;
    try {
      webhook = new Webhook(secrets.signingSecret);
      webhook.verify(request.rawBody, {
        'webhook-id': headerValue(request.headers, 'webhook-id'),
        'webhook-timestamp': headerValue(request.headers, 'webhook-timestamp'),
        'webhook-signature': headerValue(request.headers, 'webhook-signature'),
      });
    } catch (error) {
      if (error instanceof WebhookVerificationError || error instanceof Error) return { status: 401 };
      throw error;
    }
    const requestId = headerValue(request.headers, 'webhook-id');
    let body: unknown;
    try {
      body = JSON.parse(request.rawBody.toString('utf8'));
    } catch {
      return { status: 400, body: { problems: [{ path: '', message: 'is not valid JSON' }] } };
    }
    if (!inboundBody.Check(body)) {
      const problems = valueProblems(inboundBody.Errors(body), 20).map((problem) => ({
        ...problem,
        path: `/body${problem.path}`,
      }));
      return { status: 400, body: { problems } };
    }
    const message = body;
    const text = messageText(message);
    if (typeof text !== 'string') return { status: 400, body: { problems: [text] } };
    const inbound = inboundOf(message, text);
    // Recorded (committed) under its webhook-id before it is answered: the same id sent again, to any instance,
    // is acknowledged and not answered again.
    const taken = await context.items.take(requestId, JSON.stringify(inbound));
    if (taken === null) return { status: 202, body: { accepted: true, requestId, duplicate: true } };
    context.markEvent();
    const replying = context.handleMessage(inbound, { signal: taken.signal }).then(
      async (reply) => {
        await taken.answered();
        return reply;
      },
      async (error: unknown) => {
        // Not answered: the claim is given back, and the sender's next try (or a live instance) answers it.
        await taken.release().catch(() => undefined);
        throw error;
      },
    );
    if (settings.callbackUrl === undefined) {
      const reply = await replying;
      return { status: 200, body: replyBody(reply) };
    }
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), settings.replyWaitMs);
    });
    // A wait of 0 sends every reply to the callback.
    const first = settings.replyWaitMs === 0 ? null : await Promise.race([replying, waited]);
    clearTimeout(timer);
    if (first !== null) return { status: 200, body: replyBody(first) };
    void replying
      .then((reply) => deliver(settings, webhook, requestId, message, reply, context))
      .catch((error: unknown) => {
        context.logger.warn(
          { agentId: context.agentId, platform: 'webhook', error: (error as Error).message },
          'webhook reply not delivered to the callback',
        );
      });
    return { status: 202, body: { accepted: true, requestId } };
  },
};
