import multipart from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-instance.js';
import type { GracefulShutdown } from '../../http/graceful-shutdown.js';
import { jsonOrMultipartOnly } from '../../http/json-body.js';
import { messageFromMultipart } from '../../http/multipart-message.js';
import { contextOf } from '../../http/operation.js';
import { validationError } from '../../errors.js';
import { clientAbortController, completedReply, streamReplyEvents, streamRunEvents } from '../../http/reply-stream.js';
import type { ServerSentEvent } from '../../http/sse.js';
import type { RecordedReplyEvent } from '../../services/messages/reply.js';
import { sendMessage, type SendMessageRequest } from '../../services/messages/send-message.js';
import { AgentIdParams } from '../../schemas/agents.js';
import { problemResponses } from '../../schemas/common.js';
import { maxAttachmentsPerMessage } from '../../schemas/files.js';
import { MessageReply, SendMessageBody, type SendMessageInput } from '../../schemas/messages.js';
import { Run as RunSchema } from '../../schemas/runs.js';
import { openRunEvents } from '../../services/runs/follow-run.js';
import { startBackgroundRun } from '../../services/runs/start-background-run.js';

/** A reply's event as its run recorded it, with its `id`. */
function replyEvent(event: RecordedReplyEvent): ServerSentEvent {
  return { id: event.seq, ...event.wire };
}

/**
 * A message may carry its images as base64 (4 characters per 3 bytes): its
 * body may hold that many at the size cap, over the server's usual bound.
 */
export function messageBodyLimit(bodyLimitBytes: number, maxImageBytes: number): number {
  return Math.max(bodyLimitBytes, maxAttachmentsPerMessage * Math.ceil(maxImageBytes / 3) * 4 + bodyLimitBytes);
}

/**
 * A JSON body was checked by the route's schema; a request without a body
 * (no Content-Type) was not, as the schema is given per media type.
 */
function jsonBody(body: unknown): SendMessageInput {
  if (typeof body !== 'object' || body === null) {
    throw validationError('/body', 'is required: a JSON object (application/json) or multipart/form-data');
  }
  return body as SendMessageInput;
}

export async function registerSendMessage(
  app: App,
  options: { keepAliveMs: number; shutdown: GracefulShutdown; bodyLimitBytes: number; maxImageBytes: number },
): Promise<void> {
  // Its own scope: multipart/form-data is accepted here and on document uploads only.
  await app.register(async (scope) => {
    await scope.register(multipart);
    registerRoute(scope as unknown as App, options);
  });
}

function registerRoute(
  app: App,
  options: { keepAliveMs: number; shutdown: GracefulShutdown; bodyLimitBytes: number; maxImageBytes: number },
): void {
  app.post(
    '/v1/agents/:agentId/messages',
    {
      bodyLimit: options.bodyLimitBytes,
      onRequest: jsonOrMultipartOnly,
      config: { operation: { scope: 'messages:send', rateLimit: 'sendMessage', rateLimitPer: 'agent' } },
      schema: {
        operationId: 'sendMessage',
        tags: ['messages'],
        summary: "Send a message and get the agent's reply",
        description:
          'The agent answers in character, with the knowledge relevant to the message, the `context` given, and the ' +
          'history of the conversation named by `userId` (private) or `roomId` (shared). Without either, nothing is stored.\n\n' +
          'With `stream: true` the answer is `text/event-stream`: `message.started`, then `message.delta` events whose texts ' +
          'joined are the reply, then `message.completed` (the same object as the JSON reply) — or `message.failed` with a ' +
          'problem if the model fails mid-answer. When the agent has plugins, the model may call their tools: each call is a ' +
          '`tool.called` event `{id, toolCallId, name, input}` and its result a `tool.completed` event `{id, toolCallId, name, ' +
          'output | error, durationMs}`, between deltas; the JSON reply lists them in `toolCalls`. `: keep-alive` comments come while the model is silent. If the client ' +
          'disconnects, the model call is aborted and what was said is stored with `finishReason: "aborted"`. Anything that ' +
          'goes wrong before the reply begins is an ordinary problem response.\n\n' +
          'At most 60 messages per minute and 10 in flight per agent (a stream counts until it ends), and at most 100 ' +
          'streamed replies open at once per account over all its agents (`AGENTD_MAX_OPEN_STREAMS_PER_ACCOUNT`): over ' +
          'either, 429 `concurrency_limited` with Retry-After. An agent that is ' +
          '`inactive` or in `error` answers 503 `agent_unavailable`; a provider that times out, fails or whose circuit is ' +
          'open, 503 `provider_unavailable` with Retry-After. Scope: `messages:send`.\n\n' +
          'Images may be sent as raw bytes instead of base64: a `multipart/form-data` body with the fields above as ' +
          'form fields (`text`, `userId`, `roomId`, `stream` and `background` as `true`/`false`, `context` as JSON) ' +
          'and each image a file part named `attachments` (`curl -F text=… -F attachments=@photo.png`). The same ' +
          'checks and errors apply, with the same pointers (`/body/attachments/0`).',
        params: AgentIdParams,
        body: { content: { 'application/json': { schema: SendMessageBody } } },
        response: {
          200: {
            description: 'The reply (JSON), or with `stream: true` an event stream.',
            content: {
              'application/json': { schema: Type.Ref(MessageReply) },
              'text/event-stream': {
                schema: Type.String({
                  description:
                    'Server-sent events: message.started, message.delta… (with tool.called and tool.completed between them), message.completed or message.failed.',
                }),
              },
            },
          },
          202: {
            description:
              'With `background: true` (and no `stream`): the run, queued; `Location` is its URL. Follow it with GET ' +
              '…/runs/{runId} or its events with GET …/runs/{runId}/events.',
            ...Type.Ref(RunSchema),
          },
          ...problemResponses(400, 404, 413, 415, 503),
        },
      },
    },
    async (request, reply) => {
      const input: SendMessageRequest = request.isMultipart()
        ? await messageFromMultipart(request, options.maxImageBytes)
        : jsonBody(request.body);
      if (input.background === true) {
        const ctx = contextOf(request);
        const run = await startBackgroundRun({ ctx, agentId: request.params.agentId, input });
        if (input.stream !== true) {
          return reply.status(202).header('location', `/v1/agents/${run.agentId}/runs/${run.id}`).send(run);
        }
        // The run's events on this connection; leaving stops the reading only, not the run.
        const reading = clientAbortController(reply);
        const events = await openRunEvents({
          ctx,
          agentId: run.agentId,
          runId: run.id,
          afterSeq: 0,
          signal: reading.signal,
        });
        await streamRunEvents(reply, events, {
          signal: reading,
          keepAliveMs: options.keepAliveMs,
          shutdown: options.shutdown,
        });
        return reply;
      }
      // A client that goes away before the reply begins (or a non-streamed one that is waiting) aborts the model call.
      const controller = clientAbortController(reply);
      const answer = await sendMessage({
        ctx: contextOf(request),
        agentId: request.params.agentId,
        input,
        signal: controller.signal,
      });
      if (input.stream === true) {
        await streamReplyEvents(reply, answer.events(), {
          opening: [{ id: 1, event: 'message.started', data: answer.started }],
          frame: replyEvent,
          controller,
          shutdown: options.shutdown,
          keepAliveMs: options.keepAliveMs,
        });
        return reply;
      }
      return reply.type('application/json; charset=utf-8').send(await completedReply(answer));
    },
  );
}
