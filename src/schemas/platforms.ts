import { Type, type Static } from '@sinclair/typebox';
import { NullableInResponse, StringEnum } from './common.js';

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
    state: StringEnum(platformStates, {
      description:
        '`running`: connected; `stopped`: not running (agent not active, platform disabled, or starting); ' +
        '`error`: failing, see `reason`; `unsupported`: a type this server does not run (stored only).',
    }),
    reason: NullableInResponse('string', { description: 'Why it is stopped or failing; never a secret.' }),
    lastEventAt: NullableInResponse('string', {
      description: 'When the connector last received or handled an event.',
    }),
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
