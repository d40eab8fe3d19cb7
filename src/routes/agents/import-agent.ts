import { Type } from '@sinclair/typebox';
import type { App } from '../../http/app-instance.js';
import { contextOf } from '../../http/operation.js';
import { importAgent } from '../../services/agents/import-agent.js';
import { problemResponses } from '../../schemas/common.js';
import { CharacterBody, ImportedAgent } from '../../schemas/character.js';

export function registerImportAgent(app: App): void {
  app.post(
    '/v1/agents/import',
    {
      config: { operation: { scope: 'agents:write', rateLimit: 'createAgent', rateLimitPer: 'account' } },
      schema: {
        operationId: 'importAgent',
        tags: ['agents'],
        summary: 'Create an agent from an ElizaOS character file',
        description:
          'Maps every field it can (name, bio, lore, system, adjectives, style, topics, knowledge texts, plugins, ' +
          'clients, modelProvider, settings.model, secrets) and reports the others with a reason; secrets are ' +
          'named in the report, never shown. The agent is created under the rules of `createAgent`, with its ' +
          'rate limit and its `Idempotency-Key` (keys are shared with `createAgent`). Scope: `agents:write`.',
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
        body: CharacterBody,
        response: { 201: ImportedAgent, ...problemResponses(400, 409, 413, 415, 422) },
      },
    },
    async (request, reply) => {
      const idempotencyKey = request.headers['idempotency-key'];
      const { agent, report, replayed } = await importAgent({
        ctx: contextOf(request),
        character: request.body,
        ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
      });
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(201).header('location', `/v1/agents/${agent.id}`).send({ agent, report });
    },
  );
}
