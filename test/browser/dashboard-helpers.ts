import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, afterEach, before, beforeEach } from 'node:test';
import type { Page } from 'playwright-core';
import { generateApiKey } from '../../src/security/api-key-secret.js';
import { assertDashboardBuilt, launchBrowser, type OpenBrowser, type SharedBrowser } from '../helpers/browser.js';
import { repositoryPath } from '../helpers/repository.js';
import { assertBuilt, startServer, type ServerProcess } from '../helpers/server-process.js';
import { eventually } from '../helpers/wait.js';

const builtDirectory = repositoryPath('dist');

/** agentd in a process of its own on SQLite, with a key, as the dashboard's browser tests use it. */
export interface DashboardServer {
  server: ServerProcess;
  url: string;
  key: string;
  /** Calls the API with the key, for setting up and checking what the dashboard did. */
  api<T = any>(method: string, route: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** The same process seen with another key (another account's). */
  as(key: string): DashboardServer;
  dataDirectory: string;
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
  return withKey(server, dataDirectory, key);
}

function withKey(server: ServerProcess, dataDirectory: string, key: string): DashboardServer {
  return {
    server,
    url: server.url,
    key,
    dataDirectory,
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
    as: (other) => withKey(server, dataDirectory, other),
    async stop() {
      await server.stop();
      fs.rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
}

/** What a browser test sees: the server with this test's own account and key, and a page of its own. */
export interface Dashboard {
  server: DashboardServer;
  browser: OpenBrowser;
  page: Page;
}

/**
 * The hooks of a browser test file: one agentd process and one Chromium for
 * the file (starting them is most of a short test's time), and for each test
 * a new account with a key of its own, so no test sees another's agents,
 * events or usage, and a new incognito page (no cache, cookies or session
 * storage of another test). `each` receives them before every test.
 */
export function useDashboard(
  each: (dashboard: Dashboard) => void,
  options: { environment?: Record<string, string>; viewport?: { width: number; height: number } } = {},
): void {
  let server: DashboardServer | undefined;
  let chromium: SharedBrowser | undefined;
  let accounts: Promise<AccountIssuer> | undefined;
  let browser: OpenBrowser | undefined;
  let tests = 0;
  before(async () => {
    assertBuilt();
    assertDashboardBuilt();
    [server, chromium] = await Promise.all([startDashboardServer(options.environment), launchBrowser()]);
  });
  beforeEach(async () => {
    // The first test has the bootstrap account to itself; later ones get new accounts.
    tests += 1;
    const key = async () =>
      tests === 1 ? server!.key : (await (accounts ??= openAccountIssuer(server!.dataDirectory))).issue();
    const [issued, opened] = await Promise.all([key(), chromium!.open(options.viewport)]);
    browser = opened;
    each({ server: server!.as(issued), browser, page: browser.page });
  });
  afterEach(async () => {
    await browser?.close();
    browser = undefined;
  });
  after(async () => {
    await (await accounts)?.close();
    await chromium?.close();
    await server?.stop();
  });
}

interface AccountIssuer {
  /** A new account and a key with every scope; the key is returned. */
  issue(): Promise<string>;
  close(): Promise<void>;
}

/**
 * Accounts are made by the operator's commands, not the API: this opens the
 * server's database in the test's process, as `agentd accounts create` and
 * `agentd keys create` do (SQLite in WAL mode takes the second connection).
 */
async function openAccountIssuer(dataDirectory: string): Promise<AccountIssuer> {
  // The built modules (the server's own), typed by their sources: loading them is several times faster than
  // compiling the sources in this process.
  const built = (module: string) => pathToFileURL(path.join(builtDirectory, module)).href;
  const [{ createDependencies }, { createAccount }, { issueApiKey }, { createLogger }, { loadConfig }] =
    await Promise.all([
      import(built('dependencies.js')) as Promise<typeof import('../../src/dependencies.js')>,
      import(built('services/accounts.js')) as Promise<typeof import('../../src/services/accounts.js')>,
      import(built('services/api-keys.js')) as Promise<typeof import('../../src/services/api-keys.js')>,
      import(built('logger.js')) as Promise<typeof import('../../src/logger.js')>,
      import(built('config.js')) as Promise<typeof import('../../src/config.js')>,
    ]);
  const deps = await createDependencies(loadConfig({ AGENTD_DATA_DIR: dataDirectory }), {
    logger: createLogger('warn'),
    dispatchWebhooks: false,
    backgroundWork: false,
  });
  let count = 0;
  return {
    async issue() {
      count += 1;
      const account = await createAccount({ deps: deps.services, input: { name: `browser test ${count}` } });
      const issued = await issueApiKey({ deps: deps.services, input: { accountId: account.id, name: 'dashboard' } });
      return issued.key;
    },
    close: () => deps.close(),
  };
}
export async function createAgent(server: DashboardServer, body: Record<string, unknown>): Promise<any> {
  const created = await server.api('POST', '/v1/agents', body);
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body;
}

/** A knowledge base with one document, once the document is indexed (ready to be found). */
export async function knowledgeBaseWithDocument(
  server: DashboardServer,
  name: string,
  document: { title: string; content: string },
): Promise<any> {
  const created = await server.api('POST', '/v1/knowledge-bases', { name });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const added = await server.api('POST', `/v1/knowledge-bases/${created.body.id}/documents`, document);
  assert.equal(added.status, 202, JSON.stringify(added.body));
  await eventually(
    async () => {
      const stored = await server.api('GET', `/v1/knowledge-bases/${created.body.id}/documents/${added.body.id}`);
      return stored.body.status === 'ready' ? stored.body : null;
    },
    'the document to be ready',
    15_000,
  );
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
