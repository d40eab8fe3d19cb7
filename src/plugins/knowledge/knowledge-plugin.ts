import { Type } from '@sinclair/typebox';
import type { PluginDefinition } from '../plugin.js';

const ConfigSchema = Type.Object(
  {
    maxResults: Type.Integer({
      minimum: 1,
      maximum: 20,
      default: 5,
      description: 'Most items one search returns.',
    }),
  },
  { additionalProperties: false },
);

/**
 * The `knowledge` plugin: lets the model search the agent's own knowledge
 * with a query of its choosing, ranked exactly as the prompt's retrieval
 * ranks it (the same full-text index), when the items retrieved for the
 * message were not the ones it needs.
 */
export const knowledgePlugin: PluginDefinition<typeof ConfigSchema> = {
  name: 'knowledge',
  description: "Searches the agent's own knowledge.",
  configSchema: ConfigSchema,
  secretsSchema: Type.Object({}, { additionalProperties: false }),
  async open(config, _secrets, context) {
    return {
      tools: [
        {
          name: 'search_knowledge',
          description: "Searches the agent's knowledge for items relevant to a query; returns the best matches first.",
          inputSchema: {
            type: 'object',
            properties: {
              query: { type: 'string', description: 'What to look for, in a few words.' },
              limit: { type: 'integer', minimum: 1, maximum: config.maxResults, description: 'How many items.' },
            },
            required: ['query'],
            additionalProperties: false,
          },
          // Reads the agent's own knowledge.
          sideEffects: false,
          async execute(input) {
            const { query, limit } = input as { query: string; limit?: number };
            const results = await context.searchKnowledge(
              query,
              Math.min(limit ?? config.maxResults, config.maxResults),
            );
            return { query, results };
          },
        },
      ],
    };
  },
};
