import { Type, type Static } from '@sinclair/typebox';

const Snowflake = Type.String({ pattern: '^[0-9]{1,20}$', description: 'A Discord id (a snowflake).' });

export const discordSettingsSchema = Type.Object(
  {
    answerDirectMessages: Type.Boolean({
      default: true,
      description: 'Answer direct messages to the bot (true), or only mentions in servers (false).',
    }),
    guildIds: Type.Optional(
      Type.Array(Snowflake, {
        maxItems: 100,
        uniqueItems: true,
        description:
          'When set, mentions are answered only in these servers (guild ids); unset: in every server the bot is in.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type DiscordSettings = Static<typeof discordSettingsSchema>;

/**
 * The token is needed to run, but optional here: the core checks an entry's
 * secrets for names and presence only (a kept secret comes back as its mask,
 * and an imported character may carry none yet). `start` refuses to run
 * without it, and the agent's status says so.
 */
export const discordSecretsSchema = Type.Object(
  {
    botToken: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 256,
        description: "The bot's token (Developer Portal → your application → Bot → Reset Token).",
      }),
    ),
    applicationId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: "The application's id; not needed to connect, kept for imported ElizaOS characters.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type DiscordSecrets = Static<typeof discordSecretsSchema>;
