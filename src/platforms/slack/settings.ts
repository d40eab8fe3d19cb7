import { Type, type Static } from '@sinclair/typebox';

export const slackSettingsSchema = Type.Object(
  {
    replyInThread: Type.Boolean({
      default: true,
      description:
        'Answer a channel mention in a thread under the message (true) or in the channel itself (false). A message already in a thread is always answered in that thread.',
    }),
  },
  { additionalProperties: false },
);
export type SlackSettings = Static<typeof slackSettingsSchema>;

/**
 * Both secrets are needed to run, but optional here: the core checks an
 * entry's secrets for names and presence only (a kept secret comes back as its
 * mask, and an imported character may carry none yet). `start` refuses to run
 * without them, and the agent's status says which is missing.
 */
export const slackSecretsSchema = Type.Object(
  {
    botToken: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 512,
        description: "The app's Bot User OAuth Token (OAuth & Permissions page, starts with `xoxb-`).",
      }),
    ),
    signingSecret: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 256,
        description: "The app's Signing Secret (Basic Information page); every event request is checked with it.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type SlackSecrets = Static<typeof slackSecretsSchema>;
