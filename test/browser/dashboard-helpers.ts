import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { generateApiKey } from '../../src/security/api-key-secret.js';
import { startServer, type ServerProcess } from '../helpers/server-process.js';

/** agentd in a process of its own on SQLite, with a key, as the dashboard's browser tests use it. */
export interface DashboardServer {
  server: ServerProcess;
  url: string;
  key: string;
  /** Calls the API with the key, for setting up and checking what the dashboard did. */
  api<T = any>(method: string, route: string, body?: unknown): Promise<{ status: number; body: T }>;
  stop(): Promise<void>;
}

/** `environment` adds to or overrides the server's settings (loopback webhooks for a test's receiver, no rate limits for a bench). */
export async function startDashboardServer(environment: Record<string, string> = {}): Promise<DashboardServer> {
  const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-dashboard-'));
  const key = generateApiKey();
  // A minute to start: on a machine busy with other work, starting the process alone took 17 s.
  const server = await startServer(
    { AGENTD_DATA_DIR: dataDirectory, AGENTD_BOOTSTRAP_KEY: key, AGENTD_BUILTIN_WORD_DELAY_MS: '5', ...environment },
    60_000,
  );
  return {
    server,
    url: server.url,
    key,
    async api(method, route, body) {
      const response = await fetch(`${server.url}${route}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    },
    async stop() {
      await server.stop();
      fs.rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
}

export async function createAgent(server: DashboardServer, body: Record<string, unknown>): Promise<any> {
  const created = await server.api('POST', '/v1/agents', body);
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body;
}

/** Signs in through the form, as a user does, and waits for the agents list. */
export async function signIn(page: Page, server: DashboardServer): Promise<void> {
  await page.goto(`${server.url}/`);
  await page.getByLabel('API key').fill(server.key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
}

/**
 * No page of the test broke the Content-Security-Policy or threw. The
 * browser's own line for each error answer of the API (a 401, 404 or 409 the
 * test asked for) is not a fault of the page.
 */
export function assertNoConsoleErrors(errors: string[]): void {
  const faults = errors.filter((error) => !error.startsWith('Failed to load resource: the server responded'));
  assert.deepEqual(faults, [], `console errors: ${faults.join('\n')}`);
}
