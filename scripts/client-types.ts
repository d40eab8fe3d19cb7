import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import pino from 'pino';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createDependencies } from '../src/dependencies.js';
import { packageRoot } from '../src/package-root.js';

/**
 * The typed client's types come from the server's own OpenAPI document, so a
 * change to a route schema reaches the client by regenerating, never by hand.
 * The document is read through `app.inject` on a throw-away SQLite data dir:
 * no port is opened and no configuration of the machine it runs on leaks in
 * (the environment is fixed here, so every run writes the same file).
 */
export const clientTypesFile = path.join(packageRoot, 'src', 'client', 'openapi.d.ts');

const banner =
  '// Generated from GET /v1/openapi.json by `npm run client:types` (scripts/generate-client-types.ts).\n' +
  '// Do not edit: change the route schemas in src/ and regenerate.\n\n';

export async function readOpenApiDocument(): Promise<OpenAPI3> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-openapi-'));
  try {
    const config = loadConfig({ AGENTD_DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const deps = await createDependencies(config, { logger: pino({ level: 'silent' }) });
    try {
      const app = await buildApp({ config, deps });
      try {
        const response = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
        if (response.statusCode !== 200) throw new Error(`GET /v1/openapi.json answered ${response.statusCode}`);
        return response.json() as OpenAPI3;
      } finally {
        await app.close();
      }
    } finally {
      await deps.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The text of src/client/openapi.d.ts as a fresh generation writes it. */
export async function generateClientTypes(): Promise<string> {
  const document = await readOpenApiDocument();
  const nodes = await openapiTS(document, { alphabetize: true });
  const text = banner + astToString(nodes);
  // Formatted like the rest of the code, so the committed file and a fresh one compare byte for byte.
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(clientTypesFile)) ?? {};
  return prettier.format(text, { ...options, filepath: clientTypesFile });
}
