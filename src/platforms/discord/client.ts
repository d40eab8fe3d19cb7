import type { Logger } from 'pino';

/** Discord's own REST API base, used when the operator configured none. */
export const defaultDiscordApiUrl = 'https://discord.com/api';

const importDiscord = () => import('discord.js');
let discord: ReturnType<typeof importDiscord> | undefined;

/** discord.js takes most of a second to load: only agents with a Discord platform pay for it, once. */
export function loadDiscord(): ReturnType<typeof importDiscord> {
  discord ??= importDiscord();
  return discord;
}

/**
 * True when Discord refused the token: discord.js's TokenInvalid (a 401 on
 * GET /gateway/bot), the gateway closing with 4004 (Authentication failed),
 * or a 401/403 from the REST API.
 */
export function isRejectedToken(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const candidate = error as { code?: unknown; status?: unknown; message?: unknown };
  if (candidate.code === 'TokenInvalid') return true;
  if (candidate.message === 'Authentication failed') return true;
  return candidate.status === 401 || candidate.status === 403;
}

/**
 * True when the gateway closed with 4014: the bot asked for an intent its
 * application is not allowed (Message Content, unless turned on in the
 * Developer Portal). Retrying cannot help until the owner changes the setting.
 */
export function isDisallowedIntent(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { message?: unknown }).message === 'Used disallowed intents'
  );
}

/** A short description of a failure for logs and reasons, with no request details (the token rides in headers). */
export function describeDiscordFailure(error: unknown): string {
  if (typeof error !== 'object' || error === null) return 'unknown error';
  const candidate = error as { code?: unknown; status?: unknown; message?: unknown; name?: unknown };
  if (typeof candidate.status === 'number') return `Discord answered HTTP ${candidate.status}`;
  if (candidate.code === 'TokenInvalid' || candidate.message === 'Authentication failed') {
    return 'Discord refused the token';
  }
  if (typeof candidate.code === 'string') return `${candidate.code}`;
  return typeof candidate.name === 'string' ? candidate.name : 'unknown error';
}

/** discord.js reports trouble through events; each becomes one warning line, with no payloads. */
export function logClientTrouble(logger: Logger, what: string, error: unknown): void {
  logger.warn({ reason: describeDiscordFailure(error) }, `discord ${what}`);
}
