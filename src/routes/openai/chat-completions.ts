import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-instance.js';
import type { GracefulShutdown } from '../../http/graceful-shutdown.js';
import { openAiErrorBody } from '../../http/openai-error.js';
import { contextOf } from '../../http/operation.js';
import { toAppError } from '../../http/problem.js';
import type { AgentRateLimit } from '../../http/rate-limit.js';
import { clientAbortController, completedReply, streamReplyEvents } from '../../http/reply-stream.js';
import type { ServerSentEvent } from '../../http/sse.js';
import type { Reply } from '../../services/messages/reply.js';
import { chunkWriter, toChatCompletion } from '../../services/openai/completion-view.js';
import { findAgentByModel } from '../../services/openai/find-agent-by-model.js';
import { startChatCompletion } from '../../services/openai/start-chat-completion.js';
import { ChatCompletion, ChatCompletionBody } from '../../schemas/openai.js';
import { openAiErrorResponses } from './error-responses.js';

/**
 * OpenAI's stream: `data:` lines of `chat.completion.chunk`, the last one with
 * `finish_reason`, a usage chunk when asked for, then `data: [DONE]`. A failure
 * after the stream began is a `data: {"error": …}` line, which the `openai`
 * client raises as an APIError.
 */
async function* completionChunks(
  answer: Reply,
  includeUsage: boolean,
  origin: string,
  log: (error: unknown) => void,
): AsyncGenerator<ServerSentEvent, void, undefined> {
  const chunks = chunkWriter(answer.started, origin);
  yield { data: chunks.opening() };
  try {
    for await (const event of answer.events()) {
      if (event.type === 'delta') yield { data: chunks.delta(event.text) };
      else if (event.type === 'completed') {
        const images = chunks.images(event.reply);
        if (images !== null) yield { data: images };
        yield { data: chunks.closing(event.reply) };
        if (includeUsage) yield { data: chunks.usage(event.reply) };
      } else if (event.type === 'failed') {
        yield { data: openAiErrorBody(event.error) };
        return;
      }
    }
  } catch (error) {
    log(error);
    yield { data: openAiErrorBody(toAppError(error as Error)) };
    return;
  }
  yield { data: '[DONE]', literal: true };
}

/** The server as this client reached it: image URLs in completions are absolute, as OpenAI clients expect. */
function originOf(request: { protocol: string; host: string }): string {
  return `${request.protocol}://${request.host}`;
}

export function registerChatCompletions(
  app: App,
  options: { keepAliveMs: number; shutdown: GracefulShutdown; agentRateLimit: AgentRateLimit; bodyLimitBytes: number },
): void {
  app.post(
    '/v1/chat/completions',
    {
      // Images may come as data URLs: the same bound as the messages route.
      bodyLimit: options.bodyLimitBytes,
      config: {
        operation: { scope: 'messages:send', rateLimit: 'sendMessage', rateLimitPer: 'body-agent' },
        errorFormat: 'openai',
      },
      schema: {
        operationId: 'createChatCompletion',
        tags: ['openai'],
        summary: 'Talk to an agent through the OpenAI Chat Completions API',
        description:
          'For the `openai` client and tools built on it: `model` is an agent id, or `agent:<name>` when exactly one ' +
          "agent has that name. The last message, which must be the user's, is sent to the agent as in " +
          '`POST /v1/agents/{agentId}/messages`; `user` is its `userId`, so the agent remembers the conversation ' +
          'itself and earlier messages are not read; `system` and `developer` messages are given as `context` for ' +
          "this reply only. The agent's own character, knowledge, memory and plugins apply: its tools run inside " +
          'agentd and are not shown to the client (`finish_reason` is then `stop`). `temperature` and `max_tokens` ' +
          "(or `max_completion_tokens`) override the agent's settings for this reply; other OpenAI fields are " +
          'accepted and ignored.\n\n' +
          'The answer is a `chat.completion` whose `id` is the reply’s message id and whose `model` is the agent id; ' +
          'with `stream: true`, `chat.completion.chunk` events, a usage chunk with `stream_options.include_usage`, ' +
          'then `data: [DONE]`. Errors are OpenAI’s `{error: {message, type, param, code}}` (`code` is agentd’s) ' +
          'with the statuses of the native API. Scope: `messages:send`; the agent’s sendMessage limit and in-flight ' +
          'bound are shared with the native route.',
        body: ChatCompletionBody,
        response: {
          200: {
            description: 'The completion (JSON), or with `stream: true` an event stream.',
            content: {
              'application/json': { schema: ChatCompletion },
              'text/event-stream': {
                schema: Type.String({ description: 'data: chat.completion.chunk lines, then data: [DONE].' }),
              },
            },
          },
          ...openAiErrorResponses(400, 404, 413, 415),
        },
      },
    },
    async (request, reply) => {
      const ctx = contextOf(request);
      const agent = await findAgentByModel(ctx, request.body.model);
      await options.agentRateLimit(request, reply, agent.id);
      // A client that goes away before the reply begins (or a non-streamed one that is waiting) aborts the model call.
      const controller = clientAbortController(reply);
      const answer = await startChatCompletion({
        ctx,
        agentId: agent.id,
        input: request.body,
        signal: controller.signal,
      });
      if (request.body.stream === true) {
        const log = (error: unknown) =>
          request.log.error({ err: error, requestId: request.id }, 'streamed chat completion failed');
        const includeUsage = request.body.stream_options?.include_usage === true;
        await streamReplyEvents(reply, completionChunks(answer, includeUsage, originOf(request), log), {
          controller,
          shutdown: options.shutdown,
          keepAliveMs: options.keepAliveMs,
        });
        return reply;
      }
      return toChatCompletion(await completedReply(answer), originOf(request));
    },
  );
}
