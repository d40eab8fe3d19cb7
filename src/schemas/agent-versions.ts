import { Type, type Static, type TUnsafe } from '@sinclair/typebox';
import { AgentSchema } from './agents.js';
import { NullableInResponse, StringEnum, Timestamp } from './common.js';

/** An agent's versions: every configuration it had, what made each one, diffs between them, and restore. */

export const versionSources = ['create', 'import', 'update', 'restore', 'detach', 'existing'] as const;

/** A nullable integer in a response, as a type list (see NullableInResponse in common.ts). */
function NullableInteger(description: string): TUnsafe<number | null> {
  return Type.Unsafe<number | null>({ type: ['integer', 'null'], description });
}

const VersionNumber = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

export const AgentVersionParams = Type.Object({
  agentId: Type.String({ maxLength: 100 }),
  version: VersionNumber,
});
export type AgentVersionParamsValue = Static<typeof AgentVersionParams>;

const { id, status, statusReason, createdAt, updatedAt, version, ...configurationProperties } = AgentSchema.properties;

/** The agent's fields that are configuration: all but its id, status, version and times. Secrets masked. */
export const AgentConfigurationSchema = Type.Object(configurationProperties, {
  title: 'AgentConfiguration',
  description:
    'What the agent was configured with at this version: the fields of the agent but `id`, `status`, ' +
    '`statusReason`, `version`, `createdAt` and `updatedAt`. Secrets are masked, as on the agent; a version ' +
    'never holds a secret, only a reference to the one the agent held.',
});
export type AgentConfigurationView = Static<typeof AgentConfigurationSchema>;

const summaryFields = {
  agentId: Type.String(),
  version: Type.Integer({ description: 'Numbered per agent from 1; the agent’s `version` is its latest.' }),
  createdAt: Timestamp,
  keyId: NullableInResponse('string', {
    description: 'The API key that made this version; null for one recorded when versions began to be kept.',
  }),
  source: StringEnum(versionSources, {
    description:
      '`create`, `import` (a character file), `update` (PATCH), `restore` (see `restoredFrom`), `detach` (a ' +
      'knowledge base the agent used was deleted), `existing` (the configuration the agent had when versions ' +
      'began to be kept).',
  }),
  restoredFrom: NullableInteger('For a restore: the version it restored.'),
  fields: Type.Array(Type.String(), {
    description: 'Top-level fields that differ from the version before (empty for the first).',
  }),
};

export const AgentVersionSummarySchema = Type.Object(summaryFields, { title: 'AgentVersionSummary' });
export type AgentVersionSummaryView = Static<typeof AgentVersionSummarySchema>;

export const AgentVersionSchema = Type.Object(
  { ...summaryFields, configuration: AgentConfigurationSchema },
  { title: 'AgentVersion' },
);
export type AgentVersionView = Static<typeof AgentVersionSchema>;

export const ListAgentVersionsQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, description: 'Versions per page, 1–100 (default 20).' }),
    ),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1000, description: 'The `nextCursor` of the previous page.' }),
    ),
  },
  { additionalProperties: false },
);
export type ListAgentVersionsQueryValue = Static<typeof ListAgentVersionsQuery>;

export const AgentVersionList = Type.Object({
  data: Type.Array(AgentVersionSummarySchema),
  pagination: Type.Object({ limit: Type.Integer(), hasMore: Type.Boolean(), nextCursor: NullableInResponse('string') }),
});
export type AgentVersionListView = Static<typeof AgentVersionList>;

export const AgentVersionDiffQuery = Type.Object(
  {
    from: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 2_147_483_647,
        description: 'The version to compare with (default: the one before; for version 1, an empty configuration).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type AgentVersionDiffQueryValue = Static<typeof AgentVersionDiffQuery>;

const PatchOperation = Type.Object(
  {
    op: StringEnum(['add', 'remove', 'replace'] as const),
    path: Type.String({ description: 'JSON Pointer (RFC 6901) into the configuration.' }),
    value: Type.Optional(Type.Unknown({ description: 'For `add` and `replace`: the new value (secrets masked).' })),
  },
  { title: 'JsonPatchOperation' },
);

export const AgentVersionDiffSchema = Type.Object(
  {
    agentId: Type.String(),
    from: NullableInteger('The version compared with; null: an empty configuration.'),
    to: Type.Integer(),
    format: Type.Literal('json-patch'),
    operations: Type.Array(PatchOperation, {
      description:
        'A JSON Patch (RFC 6902) that turns the `from` configuration into the `to` one; empty when they are equal. ' +
        'A secret replaced by one with the same mask shows as no change here; `fields` of the version names it.',
    }),
  },
  { title: 'AgentVersionDiff' },
);
export type AgentVersionDiffView = Static<typeof AgentVersionDiffSchema>;
