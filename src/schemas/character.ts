import { Type, type Static } from '@sinclair/typebox';
import { AgentName, AgentSchema, CreateAgentBody, limits } from './agents.js';

/**
 * An ElizaOS character file (the `Character` type of @elizaos/core 1.x, with
 * the older 0.x fields `lore`, `clients`, `modelProvider` and
 * `settings.model`). Character files carry many fields agentd has no use for,
 * so unknown fields are accepted at every level and named in the import
 * report; each known field is typed, with the bounds of the agent field it
 * becomes so that a violation points at the character's own field.
 */

const Text = Type.String({ maxLength: limits.text });
const TextList = Type.Array(Text, { maxItems: limits.arrayItems });
/** A knowledge text may be a whole document: it is split into items agentd accepts. */
const KnowledgeText = Type.String({ minLength: 1, maxLength: limits.knowledgeBytes });
const SecretValue = Type.Union([Type.String({ maxLength: limits.text }), Type.Number(), Type.Boolean()]);
const Secrets = Type.Record(Type.String({ maxLength: 200 }), SecretValue, {
  maxProperties: 200,
  description: 'Credentials by environment variable name, e.g. `DISCORD_API_TOKEN`.',
});

/**
 * What the character format has no field for (tone, goals, platform settings,
 * plugin configs, the full model, metadata …), kept under `settings.agentd`
 * by the export so that an import gives the same agent back. Any field of an
 * agent create body may be given here; it wins over what the character's own
 * fields map to.
 */
export const AgentdExtension = Type.Partial(Type.Omit(CreateAgentBody, ['name']), {
  additionalProperties: false,
  title: 'AgentdCharacterExtension',
});

export const CharacterBody = Type.Object(
  {
    id: Type.Optional(Type.String({ maxLength: 200 })),
    name: AgentName,
    username: Type.Optional(Type.String({ maxLength: 200 })),
    system: Type.Optional(Text),
    bio: Type.Optional(Type.Union([Text, TextList])),
    lore: Type.Optional(TextList),
    messageExamples: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 1000 })),
    postExamples: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 1000 })),
    topics: Type.Optional(TextList),
    adjectives: Type.Optional(TextList),
    knowledge: Type.Optional(
      Type.Array(
        Type.Union([
          KnowledgeText,
          Type.Object({ path: Type.String({ maxLength: 2000 }), shared: Type.Optional(Type.Boolean()) }),
          Type.Object({ directory: Type.String({ maxLength: 2000 }), shared: Type.Optional(Type.Boolean()) }),
        ]),
        { maxItems: 1000 },
      ),
    ),
    plugins: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: limits.arrayItems })),
    clients: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: limits.arrayItems })),
    modelProvider: Type.Optional(Type.String({ maxLength: 100 })),
    settings: Type.Optional(
      Type.Object({
        secrets: Type.Optional(Secrets),
        model: Type.Optional(Type.String({ maxLength: 200 })),
        modelConfig: Type.Optional(
          Type.Object({
            temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2 })),
            maxOutputTokens: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
          }),
        ),
        agentd: Type.Optional(AgentdExtension),
      }),
    ),
    secrets: Type.Optional(Secrets),
    style: Type.Optional(
      Type.Object({ all: Type.Optional(TextList), chat: Type.Optional(TextList), post: Type.Optional(TextList) }),
    ),
    templates: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  {
    additionalProperties: true,
    title: 'ElizaCharacter',
    description: 'An ElizaOS character file (1.x, and the 0.x fields lore, clients, modelProvider, settings.model).',
  },
);
export type Character = Static<typeof CharacterBody>;

export const ImportReport = Type.Object({
  mapped: Type.Array(Type.String(), { description: 'Character fields that became part of the agent.' }),
  unmapped: Type.Array(Type.Object({ field: Type.String(), reason: Type.String() }), {
    description: 'Character fields left out, and why. Secrets are named, never shown.',
  }),
});
export type ImportReportValue = Static<typeof ImportReport>;

export const ImportedAgent = Type.Object({ agent: Type.Ref(AgentSchema), report: ImportReport });

/** The character file GET /v1/agents/{agentId}/export gives back: secret names with empty values. */
export const ExportedCharacter = Type.Object(
  {
    name: Type.String(),
    bio: Type.Array(Type.String()),
    system: Type.Optional(Type.String()),
    adjectives: Type.Array(Type.String()),
    topics: Type.Array(Type.String()),
    style: Type.Object({ all: Type.Array(Type.String()) }),
    knowledge: Type.Array(Type.String()),
    plugins: Type.Array(Type.String()),
    clients: Type.Array(Type.String()),
    settings: Type.Object({
      secrets: Type.Record(Type.String(), Type.Literal('')),
      agentd: Type.Record(Type.String(), Type.Unknown()),
    }),
  },
  { title: 'ExportedCharacter' },
);
export type ExportedCharacterValue = Static<typeof ExportedCharacter>;
