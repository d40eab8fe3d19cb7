import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { createAgent } from '../../services/agents/create-agent.js';
import { problemResponses } from '../../schemas/common.js';
import { AgentSchema, CreateAgentBody } from '../../schemas/agents.js';

export function registerCreateAgent(app: App): void {
  app.post(
    '/v1/agents',
    {
      config: { operation: { scope: 'agents:write', rateLimit: 'createAgent', rateLimitPer: 'account' } },
      schema: {
        operationId: 'createAgent',
        tags: ['agents'],
        summary: 'Create an agent',
        description:
          'Only `name` is required. With an `Idempotency-Key` header, the same key and body within 24 hours ' +
          'replay the first response (marked `Idempotent-Replayed: true`); the same key with another body is 422; ' +
          'while the first request runs, 409. Scope: `agents:write`.',
        headers: Type.Object({
          'idempotency-key': Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 255,
              pattern: '^[\\x21-\\x7E]+$',
              description: 'Printable ASCII, 1–255 characters.',
            }),
          ),
        }),
        body: CreateAgentBody,
        response: { 201: Type.Ref(AgentSchema), ...problemResponses(400, 409, 413, 415, 422) },
      },
    },
    async (request, reply) => {
      const idempotencyKey = request.headers['idempotency-key'];
      const { agent, replayed } = await createAgent({
        ctx: contextOf(request),
        input: request.body,
        ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
      });
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(201).header('location', `/v1/agents/${agent.id}`).send(agent);
    },
  );
}
