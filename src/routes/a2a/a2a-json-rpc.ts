import { A2A_VERSION_HEADER } from '@a2a-js/sdk';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { JsonRpcTransportHandler, ServerCallContext, validateVersion } from '@a2a-js/sdk/server';
import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-instance.js';
import type { GracefulShutdown } from '../../http/graceful-shutdown.js';
import { contextOf } from '../../http/operation.js';
import { clientAbortController, streamReplyEvents } from '../../http/reply-stream.js';
import type { ServerSentEvent } from '../../http/sse.js';
import { AgentIdParams } from '../../schemas/agents.js';
import { problemResponses } from '../../schemas/common.js';
import { agentCardOf } from '../../services/a2a/agent-card.js';
import { AgentRequestHandler } from '../../services/a2a/agent-request-handler.js';
import { requireMethodScope } from '../../services/a2a/method-scopes.js';
import { findOwnAgent } from '../../services/agents/get-agent.js';
import type { RateCheck } from '../../services/mcp/agent-tools.js';
import { publicBaseUrl } from './public-base-url.js';

type Envelope = { jsonrpc: string; id: string | number | null; error?: unknown };

/** A2A 1.0 clients say so in A2A-Version; a request without it is a 0.3 client's (A2A 1.0, section 3.6.2). */
function isLegacy(version: string | undefined): boolean {
  return version === undefined || version.trim() === '' || version.trim().startsWith('0.3');
}

function requestIdOf(body: unknown): string | number | null {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/**
 * An agent's A2A endpoint: JSON-RPC 2.0 with the methods of A2A 1.0
 * (SendMessage, SendStreamingMessage, GetTask, CancelTask) and of 0.3
 * (message/send, message/stream, tasks/get, tasks/cancel), parsed and answered
 * by the SDK's transport handlers over agentd's own request handler.
 */
export function registerA2aJsonRpc(
  app: App,
  options: { publicBaseUrl: string | null; rateCheck: RateCheck; shutdown: GracefulShutdown; keepAliveMs: number },
): void {
  app.post(
    '/v1/a2a/:agentId',
    {
      config: { operation: { scope: null, rateLimit: 'sendMessage', rateLimitPer: 'body-agent' } },
      schema: {
        operationId: 'a2aJsonRpc',
        tags: ['a2a'],
        summary: 'Talk to an agent over A2A (JSON-RPC)',
        description:
          'The agent’s A2A endpoint, named by its agent card. A message (`SendMessage`, or `message/send` for A2A ' +
          '0.3 clients) is a message to the agent, and its task is the run it starts (trigger `a2a`): the task id ' +
          'is the run id, so `GetTask` and `CancelTask` work on any instance. `contextId` is the conversation ' +
          '(the room): messages with the same one continue it. `SendStreamingMessage` (`message/stream`) answers ' +
          'with an event stream: the task, artifact updates as the reply’s text comes, status updates for tool ' +
          'calls and the end. Only text parts are read. Needs `messages:send` to send or cancel, `agents:read` to ' +
          'get a task, checked before the agent is looked up: a key without the method’s scope gets the same ' +
          '`insufficient_scope` JSON-RPC error whether the agent exists or not. The same per-minute limits and ' +
          'in-flight slots as the messages route. JSON-RPC errors are answered with status 200, as A2A asks. See ' +
          'docs/a2a.md.',
        params: AgentIdParams,
        body: Type.Unknown({ description: 'A JSON-RPC 2.0 request of A2A.' }),
        response: {
          200: {
            description: 'The JSON-RPC response, or for streaming methods an event stream of responses.',
            content: {
              'application/json': { schema: Type.Unknown() },
              'text/event-stream': { schema: Type.String() },
            },
          },
          ...problemResponses(404),
        },
      },
    },
    async (request, reply) => {
      const ctx = contextOf(request);
      const versionHeader = request.headers[A2A_VERSION_HEADER.toLowerCase()];
      const requestedVersion = typeof versionHeader === 'string' ? versionHeader : undefined;
      const legacy = isLegacy(requestedVersion);
      const mapError = legacy
        ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError
        : JsonRpcTransportHandler.mapToJSONRPCError;
      const failure = (error: unknown): Envelope => ({
        jsonrpc: '2.0',
        id: requestIdOf(request.body),
        error: mapError(error),
      });
      try {
        requireMethodScope(ctx, request.body);
      } catch (error) {
        return reply.type('application/json').send(failure(error));
      }
      const agent = await findOwnAgent(ctx, request.params.agentId);
      const card = agentCardOf(ctx, agent, publicBaseUrl(request, options.publicBaseUrl));
      const controller = clientAbortController(reply);
      const handler = new AgentRequestHandler(ctx, agent.id, card, options.rateCheck, controller.signal);
      const callContext = new ServerCallContext({ requestedVersion: legacy ? '0.3' : requestedVersion! });

      let answer: Envelope | AsyncGenerator<Envelope, void, undefined>;
      try {
        if (!legacy) validateVersion(requestedVersion!, card, 'JSONRPC');
        const transport = legacy ? new LegacyJsonRpcTransportHandler(handler) : new JsonRpcTransportHandler(handler);
        answer = (await transport.handle(request.body as Record<string, unknown>, callContext)) as typeof answer;
      } catch (error) {
        return reply.type('application/json').send(failure(error));
      }
      if (!(Symbol.asyncIterator in answer)) return reply.type('application/json').send(answer);

      // A stream that fails before its first event is answered as a plain JSON-RPC error, as the SDK does.
      const stream = answer;
      let first: IteratorResult<Envelope, void>;
      try {
        first = await stream.next();
      } catch (error) {
        return reply.type('application/json').send(failure(error));
      }
      async function* events(): AsyncGenerator<ServerSentEvent, void, undefined> {
        try {
          if (!first.done) yield { data: first.value };
          for await (const envelope of { [Symbol.asyncIterator]: () => stream }) yield { data: envelope };
        } catch (error) {
          request.log.error({ err: error, requestId: request.id }, 'a2a stream failed');
          yield { event: 'error', data: failure(error) };
        }
      }
      await streamReplyEvents(reply, events(), {
        controller,
        shutdown: options.shutdown,
        keepAliveMs: options.keepAliveMs,
      });
      return reply;
    },
  );
}
