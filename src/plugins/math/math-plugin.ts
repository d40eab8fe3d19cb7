import { Type } from '@sinclair/typebox';
import type { PluginDefinition } from '../plugin.js';

/** The `math` plugin: exact arithmetic on an expression. */
export const mathPlugin: PluginDefinition = {
  name: 'math',
  description: 'Evaluates arithmetic expressions exactly (64 significant digits, decimal).',
  configSchema: Type.Object({}, { additionalProperties: false }),
  secretsSchema: Type.Object({}, { additionalProperties: false }),
  async open() {
    // Loaded when an agent's tools are opened, so no call's time-out is spent loading mathjs.
    const { evaluateExpression } = await import('./evaluate.js');
    // mathjs sets up its functions on first use (a third of a second): done here too, not in a call.
    evaluateExpression('1 + 1');
    return {
      tools: [
        {
          name: 'calculate',
          description:
            'Evaluates an arithmetic expression exactly, e.g. "(1.1 + 2.2) * 3", "2^64", "sqrt(2)", "17 mod 5". ' +
            'Numbers, + - * / ^ mod !, parentheses, pi, e and functions like sqrt, round, log, sin, min, max.',
          inputSchema: {
            type: 'object',
            properties: { expression: { type: 'string', description: 'The expression to evaluate.' } },
            required: ['expression'],
            additionalProperties: false,
          },
          sideEffects: false,
          async execute(input) {
            const { expression } = input as { expression: string };
            return { expression, result: evaluateExpression(expression) };
          },
        },
      ],
    };
  },
};
