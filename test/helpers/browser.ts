import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { repositoryRoot } from './repository.js';

/**
 * Debian's Chromium driven by playwright-core, for the dashboard's browser
 * tests (test/browser). Each browser gets a new empty profile, so every test
 * starts with no cache, cookies or session storage.
 */
export const chromiumPath = '/usr/bin/chromium';

/** Why the browser tests cannot run here, or null when they can. */
export const chromiumMissing: string | null = fs.existsSync(chromiumPath)
  ? null
  : `${chromiumPath} is missing (Debian: apt-get install chromium): the dashboard's browser tests are skipped`;

/** No sandbox (containers), no GPU, and nothing the browser would fetch on its own during a measurement. */
export const chromiumFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];

/** Screenshots and other artifacts of the browser tests: $AGENTD_TEST_ARTIFACTS, else test-artifacts/ (ignored by git). */
export const artifactsDirectory = path.join(
  process.env.AGENTD_TEST_ARTIFACTS || path.join(repositoryRoot, 'test-artifacts'),
  'browser',
);

export interface OpenBrowser {
  context: BrowserContext;
  page: Page;
  /** Console errors of the pages (a Content-Security-Policy violation is one). */
  consoleErrors: string[];
  close(): Promise<void>;
}

export async function openBrowser(viewport = { width: 1280, height: 900 }): Promise<OpenBrowser> {
  const userDataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDirectory, {
    executablePath: chromiumPath,
    headless: true,
    args: chromiumFlags,
    viewport,
    timeout: 60_000,
  });
  context.setDefaultTimeout(20_000);
  const page = context.pages()[0] ?? (await context.newPage());
  const consoleErrors = watchConsole(page);
  return {
    context,
    page,
    consoleErrors,
    async close() {
      await context.close().catch(() => undefined);
      fs.rmSync(userDataDirectory, { recursive: true, force: true });
    },
  };
}

/**
 * One Chromium for many tests: each `open()` is a new incognito context (no
 * cache, cookies or session storage shared with the others), far cheaper than
 * a browser per test.
 */
export interface SharedBrowser {
  open(viewport?: { width: number; height: number }): Promise<OpenBrowser>;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<SharedBrowser> {
  // A browser server rather than `launch()`: its process can be killed when closing it does not end it, so no
  // test file lingers with a browser still attached.
  const server = await chromium.launchServer({
    executablePath: chromiumPath,
    headless: true,
    args: chromiumFlags,
    timeout: 60_000,
  });
  const browser = await chromium.connect(server.wsEndpoint(), { timeout: 60_000 });
  return {
    async open(viewport = { width: 1280, height: 900 }) {
      const context = await browser.newContext({ viewport });
      context.setDefaultTimeout(20_000);
      const page = await context.newPage();
      return { context, page, consoleErrors: watchConsole(page), close: () => context.close().catch(() => undefined) };
    },
    async close() {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        browser.close().catch(() => undefined),
        new Promise((resolve) => (timer = setTimeout(resolve, 10_000))),
      ]);
      clearTimeout(timer);
      await server.kill().catch(() => undefined);
    },
  };
}

/** Console errors of a page (a Content-Security-Policy violation is one) and its uncaught exceptions. */
function watchConsole(page: Page): string[] {
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  return consoleErrors;
}

/** Where the README's dashboard screenshots live (docs/dashboard, committed). */
export const documentationScreenshots = path.join(repositoryRoot, 'docs', 'dashboard');

/**
 * Saves a full-page screenshot as a test artifact; the path is returned for
 * the test's message. A screenshot the README shows (`documented`) is also
 * written to docs/dashboard when AGENTD_UPDATE_SCREENSHOTS=1, so the
 * pictures are made by the same tests that check the views.
 */
export async function screenshot(page: Page, name: string, options: { documented?: boolean } = {}): Promise<string> {
  fs.mkdirSync(artifactsDirectory, { recursive: true });
  const file = path.join(artifactsDirectory, `${name}.png`);
  // The documented one first: a full-page screenshot leaves the page scrolled elsewhere than the test put it.
  if (options.documented && process.env.AGENTD_UPDATE_SCREENSHOTS === '1') {
    fs.mkdirSync(documentationScreenshots, { recursive: true });
    await page.screenshot({ path: path.join(documentationScreenshots, `${name}.png`) });
  }
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** The built dashboard must be newer than its sources, as dist/ must be newer than src/. */
export function assertDashboardBuilt(): void {
  const index = path.join(repositoryRoot, 'dist', 'web', 'index.html');
  if (!fs.existsSync(index)) throw new Error('dist/web is missing: run `npm run build` first');
  const newest = (directory: string): number =>
    fs.readdirSync(directory, { withFileTypes: true }).reduce((latest, entry) => {
      const full = path.join(directory, entry.name);
      return Math.max(latest, entry.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs);
    }, 0);
  if (fs.statSync(index).mtimeMs < newest(path.join(repositoryRoot, 'web', 'src'))) {
    throw new Error('dist/web is older than web/src: run `npm run build` first');
  }
}
