import { Type } from '@sinclair/typebox';
import type { PluginDefinition } from '../../src/plugins/plugin.js';

/**
 * A plugin for tests with a tool that has a side effect (`transfer`) and one
 * that only reads (`balance`); `transfers` records each transfer's input.
 */
export function bankPlugin(transfers: unknown[] = []): PluginDefinition {
  return {
    name: 'bank',
    description: 'Money, for tests.',
    configSchema: Type.Object({}, { additionalProperties: false }),
    secretsSchema: Type.Object({}, { additionalProperties: false }),
    async open() {
      return {
        tools: [
          {
            name: 'transfer',
            description: 'Sends money.',
            inputSchema: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
            execute: async (input) => {
              transfers.push(input);
              return { sent: (input as { amount: number }).amount };
            },
          },
          {
            name: 'balance',
            description: 'Reads the balance.',
            inputSchema: { type: 'object', properties: {} },
            execute: async () => ({ balance: 100 }),
          },
        ],
      };
    },
  };
}
