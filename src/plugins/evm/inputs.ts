import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { ToolError } from '../plugin.js';

/** The chain a call is for, as every tool takes it. */
export const ChainInput = Type.Optional(
  Type.Union([Type.String({ maxLength: 64 }), Type.Integer()], {
    description: 'The chain by name or chain id; leave out for the default chain.',
  }),
);

export const TokenInput = Type.String({
  maxLength: 64,
  description: 'A token symbol this agent knows (e.g. "USDC") or a token contract address.',
});

/** The input checked against its schema (the tool runner checks it too; this keeps the types honest). */
export function checkedInput<Schema extends TSchema>(schema: Schema, input: unknown): Static<Schema> {
  if (Value.Check(schema, input)) return input;
  const first = Value.Errors(schema, input).First();
  throw new ToolError(`Invalid arguments: ${first ? `${first.path || 'input'} ${first.message}` : 'not an object'}.`);
}
