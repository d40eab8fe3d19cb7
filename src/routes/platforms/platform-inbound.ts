import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../http/app-instance.js';
import { problemResponses } from '../../schemas/common.js';
import { PlatformInboundParams } from '../../schemas/platforms.js';
import type { ServiceDeps } from '../../services/context.js';
import { handlePlatformRequest } from '../../services/platforms/platform-request.js';
import type { PlatformRuntime } from '../../services/platforms/platform-runtime.js';

/**
 * Requests platforms send to an agent (/v1/platforms/{type}/{agentId}[/…]),
 * handed to the connector of that type with the body exactly as received:
 * signatures (Standard Webhooks, Slack, Telegram's secret header) are
 * computed over these bytes. No API key: the platform's signature is the
 * credential, checked by the connector.
 */
export function registerPlatformInbound(
  app: App,
  options: { deps: ServiceDeps; runtime: PlatformRuntime; bodyLimitBytes: number },
): void {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: options.bodyLimitBytes }, (_request, body, done) =>
      done(null, body),
    );
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const params = request.params as { type: string; agentId: string; '*'?: string };
      const rest = params['*'];
      const response = await handlePlatformRequest({
        deps: options.deps,
        runtime: options.runtime,
        type: params.type,
        agentId: params.agentId,
        request: {
          path: rest ? `/${rest}` : '',
          headers: request.headers,
          rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        },
      });
      reply.code(response.status);
      for (const [name, value] of Object.entries(response.headers ?? {})) reply.header(name, value);
      if (response.body === undefined) return reply.send();
      return reply.send(typeof response.body === 'string' ? response.body : JSON.stringify(response.body));
    };
    const schema = {
      tags: ['platforms'],
      security: [],
      params: PlatformInboundParams,
      response: {
        200: Type.Unknown({
          description:
            "The connector's answer (the generic webhook: `{text, limited}`, and `reply`, a deprecated copy of `text`).",
        }),
        202: Type.Unknown({
          description:
            'Accepted: the reply will be POSTed to the callback URL, or (`duplicate: true`) the message was received ' +
            'before and is not answered again (generic webhook).',
        }),
        ...problemResponses(400, 401, 404, 413, 503),
      },
    };
    scope.post(
      '/v1/platforms/:type/:agentId',
      {
        schema: {
          ...schema,
          operationId: 'platformInbound',
          summary: 'Inbound requests from a platform (the generic webhook)',
          description:
            'For platforms, not API clients: `POST /v1/platforms/webhook/{agentId}` signed per Standard Webhooks ' +
            '(webhook-id, webhook-timestamp, webhook-signature with the entry’s `secrets.signingSecret`), body ' +
            '`{userId, roomId?, text}` → `{text, limited}`, or 202 when the entry has a `callbackUrl` and the reply ' +
            'takes longer than `replyWaitMs`. A wrong or old (over 5 minutes) signature is 401; a `webhook-id` already ' +
            'received is 202 `{accepted, requestId, duplicate: true}`, not answered again. ' +
            'Deprecated: `content`, the former name of `text`, is still read (sent with a different `text`: 400 ' +
            'naming `/body/content`), and the answer still carries `reply`, a copy of `text`.',
        },
      },
      handler,
    );
    scope.post(
      '/v1/platforms/:type/:agentId/*',
      {
        schema: {
          ...schema,
          operationId: 'platformInboundPath',
          summary: 'Inbound requests from a platform (Telegram webhooks, Slack events)',
          description:
            'For platforms, not API clients: `POST /v1/platforms/telegram/{agentId}/webhook` (checked with the ' +
            'X-Telegram-Bot-Api-Secret-Token header the service set with setWebhook; wrong → 401, nothing processed), ' +
            '`POST /v1/platforms/slack/{agentId}/events`.',
        },
      },
      handler,
    );
  });
}
