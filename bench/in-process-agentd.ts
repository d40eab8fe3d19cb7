import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDependencies } from '../src/dependencies.js';
import { createLogger } from '../src/logger.js';
import { generateApiKey } from '../src/security/api-key-secret.js';
import { bootstrap } from '../src/services/api-keys.js';

/**
 * agentd in the bench's own process, on a fresh data directory, its
 * OpenAI-compatible provider pointed at a fake: for benchmarks that count
 * what reaches the provider (requests through `app.inject`) rather than time
 * the HTTP path. `close` removes everything it made.
 */
export async function startInProcessAgentd(options: { name: string; providerBaseUrl: string; defaultModel: string }) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `agentd-bench-${options.name}-`));
  const bootstrapKey = generateApiKey();
  const config = loadConfig({
    AGENTD_DATA_DIR: dataDir,
    AGENTD_SECRET_KEY: randomBytes(32).toString('hex'),
    AGENTD_BOOTSTRAP_KEY: bootstrapKey,
    AGENTD_RATE_LIMITS: 'off',
    LOG_LEVEL: 'warn',
    AGENTD_OPENAI_COMPATIBLE_BASE_URL: options.providerBaseUrl,
    AGENTD_DEFAULT_MODEL: options.defaultModel,
  });
  const deps = await createDependencies(config, { logger: createLogger('warn') });
  const account = await bootstrap({ deps: deps.services, bootstrapKey });
  if (account === null) throw new Error('no account');
  const app = await buildApp({ config, deps });
  return {
    app,
    deps,
    accountId: account.accountId,
    headers: { authorization: `Bearer ${bootstrapKey}` },
    async close() {
      await app.close();
      await deps.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
