import type { AnyPlatformDefinition } from './platform.js';
import { telegramPlatform } from './telegram/telegram-platform.js';
import { webhookPlatform } from './webhook/webhook-platform.js';

/** The connectors this server runs; each lives in its own folder. */
export const builtinPlatforms: readonly AnyPlatformDefinition[] = [telegramPlatform, webhookPlatform];
