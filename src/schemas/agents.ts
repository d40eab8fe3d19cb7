import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { IdString, NullableInResponse, StringEnum, Timestamp } from './common.js';
import { MemorySettingsInput, MemorySettingsPatch, MemorySettingsView } from './memory.js';
import { AgentLimitsInput, AgentLimitsView } from './spend-limits.js';

/**
 * The agent as the contract defines it (§3). These schemas validate requests,
 * serialize responses (a field not listed here never leaves the server), feed
 * the OpenAPI document and give the TypeScript types.
 */

const maxText = 10_000;
export const limits = {
  text: maxText,
  arrayItems: 100,
  knowledgeBytes: 1_048_576,
  metadataKeys: 50,
  metadataValue: 500,
} as const;

const Text = Type.String({ maxLength: maxText });
const TextList = Type.Array(Text, { maxItems: limits.arrayItems });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** Free-form JSON settings of a platform or plugin. */
const JsonObject = Type.Record(Type.String({ maxLength: 200 }), Type.Unknown(), {
  maxProperties: 100,
  description: 'Free-form JSON settings.',
});

const secretName = '^[A-Za-z][A-Za-z0-9_.-]{0,99}$';
const SecretsInput = Type.Record(
  Type.String({ pattern: secretName }),
  Type.String({ minLength: 1, maxLength: maxText }),
  {
    maxProperties: 50,
    additionalProperties: false,
    description:
      'Write-only credentials. Stored encrypted; read back masked. Sending back the masked value keeps the stored ' +
      'secret, but only while what decides where it goes is unchanged (the server URL of mcp, openapi, images, ' +
      "bluesky; a2a's cardUrl and secretOrigins; http's `secretHeaders`; evm's chains and rpcUrls; a webhook's " +
      'callbackUrl; the whole config of a plugin that does not say): otherwise the mask is refused (400 at the ' +
      'secret) and the secret must be given again.',
  },
);
const SecretsView = Type.Record(Type.String({ pattern: secretName }), Type.String(), {
  additionalProperties: false,
  description: 'Masked: "••••" and the last four characters (only "••••" for secrets under 12 characters).',
});

export const AgentName = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
export const agentStatuses = ['active', 'inactive', 'error'] as const;
export const AgentStatus = StringEnum(agentStatuses);
const WritableStatus = StringEnum(['active', 'inactive'], { description: '`error` is set by the service only.' });

export const KnowledgeItem = Type.Union([
  Type.String({ minLength: 1, maxLength: maxText }),
  Type.Object(
    {
      title: Type.Optional(Type.String({ maxLength: 200 })),
      content: Type.String({ minLength: 1, maxLength: maxText }),
    },
    { additionalProperties: false },
  ),
]);
/** The same item as a type list, which the serializer handles without validating each branch. */
const KnowledgeItemInResponse = Type.Unsafe<Static<typeof KnowledgeItem>>({
  type: ['string', 'object'],
  properties: { title: { type: 'string' }, content: { type: 'string' } },
  required: ['content'],
  description: 'A text, or an object with an optional title and its content.',
});

const KnowledgeList = Type.Array(KnowledgeItem, {
  maxItems: limits.arrayItems,
  description: 'Up to 100 items and 1 MiB of text in all. The most relevant items are retrieved for each message.',
});

const KnowledgeBaseIds = Type.Array(Type.String({ pattern: '^kb_[0-9A-HJKMNP-TV-Z]{26}$' }), {
  maxItems: 20,
  uniqueItems: true,
  description:
    "Knowledge bases of this account (kb_…) the agent retrieves from for every message, cited in replies' " +
    '`citations`. At most 20.',
});

const platformType = Type.String({
  pattern: '^[a-z][a-z0-9_-]{0,49}$',
  description: 'e.g. telegram, discord, slack, x',
});
const pluginName = Type.String({
  pattern: '^[A-Za-z0-9@][A-Za-z0-9@/._-]{0,99}$',
  description: 'A plugin this server offers (GET /v1/plugins): http, knowledge, clock, math, mcp.',
});

const PlatformInput = Type.Object(
  {
    type: platformType,
    enabled: Type.Optional(Type.Boolean({ default: true })),
    settings: Type.Optional(JsonObject),
    secrets: Type.Optional(SecretsInput),
  },
  { additionalProperties: false },
);
/** Which of a plugin entry's tools wait for a person's decision before they run (docs/approvals.md). */
export const ApprovalSetting = Type.Object(
  {
    tools: Type.Union(
      [
        Type.Array(Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }), {
          minItems: 1,
          maxItems: 100,
          uniqueItems: true,
        }),
        Type.Literal('*'),
      ],
      { description: 'The tools (as the model knows them, e.g. fetch_url, mcp_add) that need approval, or "*": all.' },
    ),
    expiresAfterSeconds: Type.Optional(
      Type.Integer({
        minimum: 60,
        maximum: 2_592_000,
        description: 'How long a request waits for a decision before it expires (default 86400: 24 h; ≤ 30 days).',
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'A call of one of these tools pauses the run until POST /v1/agents/{id}/approvals/{approvalId} approves or ' +
      'denies it. A plugin may make some of its tools wait whatever this names (the evm plugin’s evm_transfer, ' +
      'unless its config sets transfers.requireApproval to false); this adds to them and cannot take them away.',
  },
);
export type ApprovalSettingValue = Static<typeof ApprovalSetting>;

const PluginInput = Type.Object(
  {
    name: pluginName,
    enabled: Type.Optional(Type.Boolean({ default: true })),
    config: Type.Optional(JsonObject),
    secrets: Type.Optional(SecretsInput),
    approval: Type.Optional(ApprovalSetting),
  },
  {
    additionalProperties: false,
    description:
      "A plugin whose tools the agent's model may call. `config` and `secrets` are checked against the plugin's " +
      'schemas from GET /v1/plugins. Secrets are credentials the model never sees: `http` sends them as the headers ' +
      '`config.secretHeaders` names for a host, `openapi` fills the document’s security schemes named like them.',
  },
);

const providerName = Type.String({ pattern: '^[a-z][a-z0-9-]{0,49}$', description: 'An enabled provider.' });
const modelName = Type.String({ minLength: 1, maxLength: 200 });
const temperature = Type.Number({ minimum: 0, maximum: 2 });
const maxOutputTokens = Type.Integer({ minimum: 1, maximum: 1_000_000 });
const topP = Type.Number({ minimum: 0, maximum: 1 });
const maxSteps = Type.Integer({
  minimum: 1,
  maximum: 20,
  description: 'Tool rounds in one reply (default 5): after this many, the model is asked to answer without tools.',
});
const modelApiKey = Type.String({
  minLength: 1,
  maxLength: 1000,
  description:
    'Write-only provider key for this agent; accepted only where the operator allows per-agent keys. Sending ' +
    'back its mask (or leaving it out) keeps it only while `provider` stays the same: a PATCH that changes the ' +
    'provider must give the key again, or `null`.',
});

const ModelInput = Type.Object(
  {
    provider: providerName,
    name: modelName,
    temperature: Type.Optional(temperature),
    maxOutputTokens: Type.Optional(maxOutputTokens),
    topP: Type.Optional(topP),
    maxSteps: Type.Optional(maxSteps),
    apiKey: Type.Optional(modelApiKey),
  },
  { additionalProperties: false },
);

const Metadata = Type.Record(Type.String(), Type.String({ maxLength: limits.metadataValue }), {
  maxProperties: limits.metadataKeys,
  propertyNames: { minLength: 1, maxLength: 100 },
  description: 'Up to 50 string keys with string values of at most 500 characters.',
});

/** How the agent shows itself to MCP clients of its account (docs/mcp-server.md). */
const McpSettings = Type.Object(
  {
    exposed: Type.Boolean({
      description:
        'Offer the agent as its own tool, `ask_<name>`, on the MCP server at /v1/mcp (default false). Every agent ' +
        'can be reached with `send_message` either way.',
    }),
  },
  { additionalProperties: false },
);

export const CreateAgentBody = Type.Object(
  {
    name: AgentName,
    status: Type.Optional(WritableStatus),
    bio: Type.Optional(
      Type.Union([Text, TextList], { description: 'A string or a list of strings; read back as a list.' }),
    ),
    personality: Type.Optional(
      Type.Object(
        { traits: Type.Optional(TextList), style: Type.Optional(TextList), tone: Type.Optional(Nullable(Text)) },
        { additionalProperties: false },
      ),
    ),
    system: Type.Optional(Nullable(Text)),
    expertise: Type.Optional(TextList),
    knowledge: Type.Optional(KnowledgeList),
    knowledgeBases: Type.Optional(KnowledgeBaseIds),
    goals: Type.Optional(
      Type.Object(
        { objectives: Type.Optional(TextList), motivations: Type.Optional(TextList) },
        { additionalProperties: false },
      ),
    ),
    platforms: Type.Optional(Type.Array(PlatformInput, { maxItems: limits.arrayItems })),
    plugins: Type.Optional(Type.Array(PluginInput, { maxItems: limits.arrayItems })),
    model: Type.Optional(ModelInput),
    deletionProtection: Type.Optional(Type.Boolean()),
    metadata: Type.Optional(Metadata),
    memory: Type.Optional(MemorySettingsInput),
    mcp: Type.Optional(McpSettings),
    limits: Type.Optional(AgentLimitsInput),
  },
  { additionalProperties: false, title: 'CreateAgent' },
);
export type CreateAgentInput = Static<typeof CreateAgentBody>;

/** JSON Merge Patch (RFC 7396): objects merge, arrays replace, null resets a field to its default. */
export const UpdateAgentBody = Type.Object(
  {
    name: Type.Optional(AgentName),
    status: Type.Optional(Nullable(WritableStatus)),
    bio: Type.Optional(Nullable(Type.Union([Text, TextList]))),
    personality: Type.Optional(
      Nullable(
        Type.Object(
          {
            traits: Type.Optional(Nullable(TextList)),
            style: Type.Optional(Nullable(TextList)),
            tone: Type.Optional(Nullable(Text)),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    system: Type.Optional(Nullable(Text)),
    expertise: Type.Optional(Nullable(TextList)),
    knowledge: Type.Optional(Nullable(KnowledgeList)),
    knowledgeBases: Type.Optional(Nullable(KnowledgeBaseIds)),
    goals: Type.Optional(
      Nullable(
        Type.Object(
          { objectives: Type.Optional(Nullable(TextList)), motivations: Type.Optional(Nullable(TextList)) },
          { additionalProperties: false },
        ),
      ),
    ),
    platforms: Type.Optional(Nullable(Type.Array(PlatformInput, { maxItems: limits.arrayItems }))),
    plugins: Type.Optional(Nullable(Type.Array(PluginInput, { maxItems: limits.arrayItems }))),
    model: Type.Optional(
      Nullable(
        Type.Object(
          {
            provider: Type.Optional(providerName),
            name: Type.Optional(modelName),
            temperature: Type.Optional(Nullable(temperature)),
            maxOutputTokens: Type.Optional(Nullable(maxOutputTokens)),
            topP: Type.Optional(Nullable(topP)),
            maxSteps: Type.Optional(Nullable(maxSteps)),
            apiKey: Type.Optional(Nullable(modelApiKey)),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    deletionProtection: Type.Optional(Nullable(Type.Boolean())),
    metadata: Type.Optional(
      Nullable(
        Type.Record(Type.String(), Nullable(Type.String({ maxLength: limits.metadataValue })), {
          propertyNames: { minLength: 1, maxLength: 100 },
        }),
      ),
    ),
    memory: Type.Optional(Nullable(MemorySettingsPatch)),
    mcp: Type.Optional(Nullable(McpSettings)),
    limits: Type.Optional(Nullable(AgentLimitsInput)),
  },
  { additionalProperties: false, title: 'UpdateAgent' },
);
export type UpdateAgentInput = Static<typeof UpdateAgentBody>;

const Platform = Type.Object({
  type: Type.String(),
  enabled: Type.Boolean(),
  settings: JsonObject,
  secrets: SecretsView,
});
const Plugin = Type.Object({
  name: Type.String(),
  enabled: Type.Boolean(),
  config: JsonObject,
  secrets: SecretsView,
  approval: Type.Optional(ApprovalSetting),
});

export const ModelView = Type.Object({
  provider: Type.String(),
  name: Type.String(),
  temperature: Type.Optional(Type.Number()),
  maxOutputTokens: Type.Optional(Type.Integer()),
  topP: Type.Optional(Type.Number()),
  maxSteps: Type.Optional(Type.Integer()),
  apiKey: Type.Optional(Type.String({ description: 'Masked.' })),
});

export const AgentSchema = Type.Object(
  {
    id: IdString('agent'),
    name: Type.String(),
    status: AgentStatus,
    statusReason: NullableInResponse('string'),
    bio: Type.Array(Type.String()),
    personality: Type.Object({
      traits: Type.Array(Type.String()),
      style: Type.Array(Type.String()),
      tone: NullableInResponse('string'),
    }),
    system: NullableInResponse('string'),
    expertise: Type.Array(Type.String()),
    knowledge: Type.Array(KnowledgeItemInResponse),
    knowledgeBases: Type.Array(Type.String()),
    goals: Type.Object({ objectives: Type.Array(Type.String()), motivations: Type.Array(Type.String()) }),
    platforms: Type.Array(Platform),
    plugins: Type.Array(Plugin),
    model: ModelView,
    deletionProtection: Type.Boolean(),
    metadata: Type.Record(Type.String(), Type.String()),
    memory: MemorySettingsView,
    mcp: McpSettings,
    limits: AgentLimitsView,
    version: Type.Integer({
      description:
        'The configuration version: 1 at create, one more with each change of configuration (not of status). ' +
        'GET /v1/agents/{agentId}/versions lists them.',
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Agent', title: 'Agent' },
);
export type Agent = Static<typeof AgentSchema>;
export type AgentStatusValue = Static<typeof AgentStatus>;
export type KnowledgeItemValue = Static<typeof KnowledgeItem>;

export const AgentIdParams = Type.Object({ agentId: Type.String({ maxLength: 100 }) });

export const sortFields = ['createdAt', 'name', 'status'] as const;
export const ListAgentsQuery = Type.Object(
  {
    page: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 100_000_000,
        description: 'Page number, from 1 (default 1). Ignored with `cursor`.',
      }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, description: 'Agents per page, 1–100 (default 20).' }),
    ),
    status: Type.Optional(AgentStatus),
    sortBy: Type.Optional(
      StringEnum(sortFields, { description: 'Default createdAt. Name order ignores case; ties are broken by id.' }),
    ),
    order: Type.Optional(StringEnum(['asc', 'desc'], { description: 'Default desc.' })),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1000,
        description:
          'The `nextCursor` of the previous page: continues after its last agent with the same filter and sort.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ListAgentsQueryValue = Static<typeof ListAgentsQuery>;

export const AgentList = Type.Object({
  data: Type.Array(Type.Ref(AgentSchema)),
  pagination: Type.Object({
    page: Type.Integer(),
    limit: Type.Integer(),
    total: Type.Integer({ description: 'Agents matching the filter.' }),
    totalPages: Type.Integer(),
    hasMore: Type.Boolean(),
    nextCursor: NullableInResponse('string'),
  }),
});
export type AgentListValue = Static<typeof AgentList>;

export const DeletedAgent = Type.Object({ id: Type.String(), deleted: Type.Literal(true) });
