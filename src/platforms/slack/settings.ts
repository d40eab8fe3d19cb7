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

export const slackSecretsSchema = Type.Object(
  {
    botToken: Type.String({
      pattern: '^xoxb-',
      minLength: 10,
      maxLength: 512,
      description: "The app's Bot User OAuth Token (OAuth & Permissions page, starts with `xoxb-`).",
    }),
    signingSecret: Type.String({
      minLength: 8,
      maxLength: 256,
      description: "The app's Signing Secret (Basic Information page); every event request is checked with it.",
    }),
  },
  { additionalProperties: false },
);
export type SlackSecrets = Static<typeof slackSecretsSchema>;
