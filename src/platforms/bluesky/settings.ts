import { Type, type Static } from '@sinclair/typebox';

export const blueskySettingsSchema = Type.Object(
  {
    serviceUrl: Type.Optional(
      Type.String({
        pattern: '^https?://',
        maxLength: 2000,
        description:
          'The account’s PDS (default https://bsky.social, or the operator’s AGENTD_BLUESKY_SERVICE_URL). Reached ' +
          'through the outbound client: private and loopback addresses are refused unless the operator allows them.',
      }),
    ),
    answerReplies: Type.Boolean({
      default: true,
      description: 'Answer replies to the agent’s posts as well as mentions (false: mentions only).',
    }),
    pollIntervalSeconds: Type.Integer({
      minimum: 1,
      maximum: 3600,
      default: 15,
      description: 'Pause between reads of the notifications.',
    }),
  },
  { additionalProperties: false },
);
export type BlueskySettings = Static<typeof blueskySettingsSchema>;

export const blueskySecretsSchema = Type.Object(
  {
    identifier: Type.Optional(
      Type.String({ minLength: 1, description: 'The account’s handle (`name.bsky.social`) or DID.' }),
    ),
    appPassword: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'An app password (Settings → Privacy and security → App passwords), never the account password.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type BlueskySecrets = Static<typeof blueskySecretsSchema>;
