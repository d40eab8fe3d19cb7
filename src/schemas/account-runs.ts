import { Type, type Static } from '@sinclair/typebox';
import { IdString, StringEnum } from './common.js';
import { runStatuses, runTriggers } from './runs.js';

/** GET /v1/runs: the runs of every agent of the account, newest first. */
export const ListAccountRunsQuery = Type.Object(
  {
    agentId: Type.Optional(IdString('agent', "Only this agent's runs.")),
    status: Type.Optional(StringEnum(runStatuses)),
    trigger: Type.Optional(StringEnum(runTriggers)),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Runs per page, 1–100 (default 20).' })),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1000, description: 'The `nextCursor` of the previous page.' }),
    ),
  },
  { additionalProperties: false },
);
export type ListAccountRunsQueryValue = Static<typeof ListAccountRunsQuery>;
