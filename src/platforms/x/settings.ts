import { Type, type Static } from '@sinclair/typebox';

export const xSettingsSchema = Type.Object(
  {
    answerMentions: Type.Union([Type.Literal('everyone'), Type.Literal('following'), Type.Literal('none')], {
      default: 'everyone',
      description:
        'Whose mentions the agent answers: `everyone`, only accounts it `following` (its following list, read ' +
        'again every 15 minutes), or `none` (it only posts, e.g. task outputs).',
    }),
    dailyPostCap: Type.Integer({
      minimum: 1,
      maximum: 10_000,
      default: 100,
      description:
        'At most this many posts a UTC day (replies, each part of a thread, and posts of its own), across ' +
        'every instance; mentions past the cap are taken and left unanswered.',
    }),
    pollIntervalSeconds: Type.Integer({
      minimum: 1,
      maximum: 3600,
      default: 60,
      description:
        'Pause between reads of the mentions timeline. Mind your X plan: its read limits are per 15 minutes; a ' +
        '429 makes the connector wait until the reset X names.',
    }),
  },
  { additionalProperties: false },
);
export type XSettings = Static<typeof xSettingsSchema>;

const secret = (description: string) => Type.Optional(Type.String({ minLength: 1, description }));

/**
 * User-context credentials only (app-only bearer tokens cannot read a user's
 * mentions nor post): the four OAuth 1.0a keys, or an OAuth 2.0 user access
 * token with the tweet.read, tweet.write, users.read (and follows.read) scopes.
 */
export const xSecretsSchema = Type.Object(
  {
    appKey: secret('OAuth 1.0a: the app’s API Key (consumer key).'),
    appSecret: secret('OAuth 1.0a: the app’s API Key Secret (consumer secret).'),
    accessToken: secret('OAuth 1.0a: the account’s Access Token (Read and write).'),
    accessSecret: secret('OAuth 1.0a: the account’s Access Token Secret.'),
    userAccessToken: secret(
      'Instead of the four OAuth 1.0a keys: an OAuth 2.0 user access token (scopes tweet.read, tweet.write, ' +
        'users.read, follows.read). It is not refreshed: when X stops accepting it, the agent goes to `error`.',
    ),
  },
  { additionalProperties: false },
);
export type XSecrets = Static<typeof xSecretsSchema>;
