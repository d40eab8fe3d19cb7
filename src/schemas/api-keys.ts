import { Type, type Static } from '@sinclair/typebox';
import { IdString, NullableInResponse, StringEnum, Timestamp } from './common.js';

/** The permissions a key can hold (contract §1). */
export const scopes = [
  'agents:read',
  'agents:write',
  'agents:delete',
  'messages:send',
  'keys:manage',
  'approvals:write',
] as const;
export type Scope = (typeof scopes)[number];

/** What each scope lets a key do, in a line (docs/scopes.md lists each one's operations beside it). */
export const scopeDescriptions: Record<Scope, string> = {
  'agents:read':
    'Read agents and everything about them: conversations, memory, runs, tasks, events, metrics, usage, knowledge bases, webhooks and files.',
  'agents:write':
    'Create and change agents and what belongs to them: conversations, memory, tasks, knowledge bases, webhooks, platforms.',
  'agents:delete': 'Delete agents.',
  'messages:send':
    'Talk to agents: send messages, stream and cancel replies, through the REST API and the OpenAI, MCP and A2A doors.',
  'keys:manage': "Create, list and revoke the account's API keys; read and replace the account's spend limits.",
  'approvals:write': 'Approve or deny tool calls that wait for a person.',
};

const Scope = StringEnum(scopes);

export const CreateApiKeyBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    scopes: Type.Optional(
      Type.Array(Scope, {
        minItems: 1,
        maxItems: scopes.length,
        uniqueItems: true,
        description: 'Default: the scopes of the key making the request. A key can only grant scopes it holds.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateApiKeyInput = Static<typeof CreateApiKeyBody>;

const apiKeyFields = {
  id: IdString('apiKey'),
  name: NullableInResponse('string'),
  scopes: Type.Array(Type.String()),
  prefix: Type.String({ description: 'The first characters of the key, to recognise it.' }),
  createdAt: Timestamp,
};

export const ApiKeySchema = Type.Object(
  {
    ...apiKeyFields,
    lastUsedAt: Type.Union([Timestamp, Type.Null()], {
      description: 'When the key last authenticated a request, to the minute; null if never.',
    }),
    revokedAt: Type.Union([Timestamp, Type.Null()], {
      description: 'When the key was revoked; null while it works. Listed only with `include=revoked`.',
    }),
  },
  { title: 'ApiKey' },
);
export const CreatedApiKeySchema = Type.Object(
  { ...apiKeyFields, key: Type.String({ description: 'The key itself. Shown only in this response.' }) },
  { title: 'CreatedApiKey' },
);
export const ApiKeyList = Type.Object({ data: Type.Array(ApiKeySchema) });
export const ListApiKeysQuery = Type.Object(
  {
    include: Type.Optional(
      StringEnum(['revoked'] as const, { description: '`revoked` lists revoked keys too (with `revokedAt`).' }),
    ),
  },
  { additionalProperties: false },
);
export const ApiKeyIdParams = Type.Object({ keyId: Type.String({ maxLength: 100 }) });
export const RevokedApiKey = Type.Object({ id: Type.String(), revoked: Type.Literal(true) });
