import { Type, type Static } from '@sinclair/typebox';
import { NullableInResponse, NullableTimestamp, StringEnum } from './common.js';

/** A platform type the server runs (GET /v1/platforms): what an agent's `platforms[]` entry may name. */
export const PlatformDescriptionSchema = Type.Object({
  type: Type.String({ description: 'What `platforms[].type` says to use this connector.' }),
  description: Type.String(),
  settingsSchema: Type.Unknown({ description: 'JSON Schema of `platforms[].settings` (defaults shown).' }),
  secretsSchema: Type.Unknown({ description: 'JSON Schema of `platforms[].secrets` (write-only strings).' }),
});

export const PlatformTypeList = Type.Object({ data: Type.Array(PlatformDescriptionSchema) });
export type PlatformTypeListValue = Static<typeof PlatformTypeList>;

export const platformStates = ['running', 'stopped', 'error', 'unsupported'] as const;

export const AgentPlatformReport = Type.Object(
  {
    type: Type.String(),
    enabled: Type.Boolean(),
    status: StringEnum(platformStates, {
      description:
        '`running`: connected; `stopped`: not running (agent not active, platform disabled, or starting); ' +
        '`error`: failing, see `statusReason`; `unsupported`: a type this server does not run (stored only).',
    }),
    statusReason: NullableInResponse('string', { description: 'Why it is stopped or failing; never a secret.' }),
    state: Type.Unsafe<(typeof platformStates)[number]>({
      ...StringEnum(platformStates),
      deprecated: true,
      description: 'Deprecated: the former name of `status`, with the same value.',
    }),
    reason: Type.Unsafe<string | null>({
      ...NullableInResponse('string'),
      deprecated: true,
      description: 'Deprecated: the former name of `statusReason`, with the same value.',
    }),
    lastEventAt: NullableTimestamp('When the connector last received or handled an event.'),
    instance: NullableInResponse('string', {
      description: 'An opaque id of the instance running it, for connectors that run on one instance at a time.',
    }),
  },
  { title: 'AgentPlatformReport' },
);
export type AgentPlatformReportView = Static<typeof AgentPlatformReport>;

export const AgentPlatformList = Type.Object({ data: Type.Array(AgentPlatformReport) });
export type AgentPlatformListView = Static<typeof AgentPlatformList>;

export const PlatformInboundParams = Type.Object({
  type: Type.String({ pattern: '^[a-z][a-z0-9_-]{0,49}$' }),
  agentId: Type.String({ maxLength: 100 }),
});

export const PlatformPostParams = Type.Object({
  agentId: Type.String({ maxLength: 100 }),
  type: Type.String({ pattern: '^[a-z][a-z0-9_-]{0,49}$', description: "One of the agent's platforms." }),
});
export type PlatformPostParamsValue = Static<typeof PlatformPostParams>;

export const PlatformPostBody = Type.Object(
  {
    text: Type.String({
      minLength: 1,
      maxLength: 32_000,
      description:
        'What to post, 1–32,000 characters; split as the platform requires (a numbered thread on X and Bluesky, ' +
        'several messages on Telegram and Discord).',
    }),
    target: Type.String({
      minLength: 1,
      maxLength: 500,
      description:
        'Where: a Telegram chat id (or `@channel`), a Slack or Discord channel id; on X and Bluesky `timeline` ' +
        '(a post of its own) or the post to reply to (an X post id, a Bluesky at:// post URI).',
      examples: ['timeline'],
    }),
  },
  { additionalProperties: false, title: 'PlatformPost' },
);
export type PlatformPostBodyValue = Static<typeof PlatformPostBody>;

export const PlatformPostResult = Type.Object(
  {
    platform: Type.String(),
    target: Type.String(),
    postedAt: Type.String({ format: 'date-time', description: 'When the platform took the post.' }),
  },
  { title: 'PlatformPostResult' },
);
export type PlatformPostResultView = Static<typeof PlatformPostResult>;
