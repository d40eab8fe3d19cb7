import fs from 'node:fs';
import path from 'node:path';
import { suiteLogDirectory } from './suite-log.js';

/**
 * Secrets the tests hand to agentd (plugin and platform secrets, provider
 * keys, credentials in URLs). None of them may ever appear in a log line of
 * the whole suite: scripts/run-tests.mjs checks every line against this list,
 * against every full API key (`agd_…`, by its shape) and against the secret
 * keys test apps were started with. A test that introduces a secret adds it here.
 */
export const knownSecrets: readonly string[] = [
  // test/api/agents.test.ts
  '123456:ABCDEFGH4f2a',
  'plain-text-token-9876',
  'sk-123456789012345',
  'xoxb-000000001111',
  'xoxb-999999992222',
  // test/api/logging.test.ts
  'xoxb-platform-secret-0001',
  'plugin-secret-value-0002',
  'rotated-secret-0003',
  // test/api/tools.test.ts
  'abcdefghijklmnop',
  'sekret-token-6d1f0b',
  // test/api/provider-prompts.test.ts
  'server-key-123456',
  'sk-test-openai-000000',
  'agent-key-abcdef987654',
  // test/api/webhooks.test.ts (signing secrets are recorded as the tests receive them)
  'xoxb-webhook-secret-5150',
  // test/integration/*
  '123456:shared-secret-9f1e',
  'mcp-secret-token-4242',
  'sk-ant-test-key-0123456789',
  'sk-test-compatible',
  'hunter2-secret',
  'api-token-5c1e9d7f20b3',
  'key-93ab61f0c4d2',
  'pet-key-7d41c09e88aa',
  'store-token-2f6b0d93c1',
  // test/api/platforms.test.ts, test/integration/platform-takeover.test.ts
  '424242:telegram-polling-secret-a1b2',
  '424243:telegram-bad-secret-c3d4',
  '424244:telegram-webhook-secret-e5f6',
  '424245:telegram-limited-secret-g7h8',
  '424246:telegram-takeover-secret-i9j0',
  '424247:telegram-outage-secret-ab12',
  'whsec_cGxhdGZvcm0td2ViaG9vay1zZWNyZXQtMDE=',
  // test/api/social-platforms.test.ts, test/integration/social-instances.test.ts, bench/social-mentions.ts
  'x-app-secret-7f3a91',
  'x-access-secret-5c2e84',
  'x-user-token-9d41b6',
  'x-wrong-secret-0b7d12',
  'bsky-app-pass-4k2m-9x7q',
  'bsky-wrong-pass-3j8n',
  'x-app-secret-instances-61c2',
  'x-access-secret-instances-7a3f',
  'bsky-app-pass-instances-2w5e',
  'x-user-token-second',
  'x-user-token-limited',
  'x-user-token-poster',
  'x-user-token-busy',
  'x-user-token-bench',
  'bsky-app-pass-bench',
  'x-user-token-security-probe',
  // test/integration/platform-slack.test.ts, platform-discord.test.ts
  'xoxb-slack-test-token-5e1a',
  'slack-signing-secret-7c3d',
  'xoxb-slack-wrong-token-0d9e',
  'MTk4NjIyNDgzNDcxOTI1MjQ4.discord-test-token-8b2f',
  'MTk4NjIyNDgzNDcxOTI1MjQ4.discord-wrong-token-3c1d',
  // test/browser/dashboard.test.ts
  'dashboard-secret-7d3e9a1c',
  'dashboard-secret-0000b2c4',
  // test/unit/*
  'db-secret',
  'xoxb-very-secret',
];

let recordedList = false;

/**
 * Adds secrets generated at run time (a test app's AGENTD_SECRET_KEY) to the
 * run's list, together with the fixed list above the first time.
 */
export function recordSecrets(...secrets: string[]): void {
  if (suiteLogDirectory === null) return;
  const values = recordedList ? secrets : [...knownSecrets, ...secrets];
  recordedList = true;
  fs.appendFileSync(path.join(suiteLogDirectory, `${process.pid}.secrets`), `${values.join('\n')}\n`);
}
