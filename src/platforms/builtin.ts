import { blueskyPlatform } from './bluesky/index.js';
import { discordPlatform } from './discord/index.js';
import type { AnyPlatformDefinition } from './platform.js';
import { slackPlatform } from './slack/index.js';
import { telegramPlatform } from './telegram/telegram-platform.js';
import { webhookPlatform } from './webhook/webhook-platform.js';
import { xPlatform } from './x/index.js';

/** The connectors this server runs; each lives in its own folder. */
export const builtinPlatforms: readonly AnyPlatformDefinition[] = [
  telegramPlatform,
  slackPlatform,
  discordPlatform,
  webhookPlatform,
  xPlatform,
  blueskyPlatform,
];
