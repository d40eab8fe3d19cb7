/**
 * The dashboard's weight and the agents list's time to interactive.
 *
 * - Sizes: the first load's files (index.html, the entry script and style
 *   sheet) and each view's chunk, as the brotli copies the server sends
 *   (dist/web/assets/*.br, written by `npm run build`).
 * - Time to interactive of the agents list with 1,000 agents in the account:
 *   a real agentd process (SQLite), Debian's Chromium with an empty profile
 *   and cache, signed in once; then every round reloads the page and reads
 *   the `agents-list-ready` performance mark the list sets when its first
 *   rows are on screen (after the first page of agents came back), counted
 *   from navigation start. Warm: a reload fetches index.html again
 *   (no-cache) and takes the hashed assets from the cache, as a returning
 *   user's browser does. Cold: the browser's cache is cleared before each
 *   reload, so every script, style sheet and chunk is fetched.
 *
 *   npm run build && node --import tsx bench/dashboard.ts
 *   ROUNDS=20 AGENTS=1000 node --import tsx bench/dashboard.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { dashboardDirectory } from '../src/http/dashboard.js';
import { openBrowser } from '../test/helpers/browser.js';
import { createAgent, signIn, startDashboardServer } from '../test/browser/dashboard-helpers.js';

const rounds = Number(process.env.ROUNDS ?? 20);
const agentCount = Number(process.env.AGENTS ?? 1000);

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const brotliSize = (file: string) => fs.statSync(`${file}.br`).size;

function sizes() {
  const assets = path.join(dashboardDirectory, 'assets');
  const index = path.join(dashboardDirectory, 'index.html');
  const html = fs.readFileSync(index, 'utf8');
  const entryFiles = [...html.matchAll(/\/assets\/([^"]+\.(?:js|css))/g)].map((match) => match[1]!);
  const entry = entryFiles.map((name) => ({ name, bytes: brotliSize(path.join(assets, name)) }));
  const chunks = fs
    .readdirSync(assets)
    .filter((name) => /\.(?:js|css)$/.test(name) && !entryFiles.includes(name))
    .map((name) => ({ name, bytes: brotliSize(path.join(assets, name)) }))
    .sort((a, b) => b.bytes - a.bytes);
  const indexBytes = fs.existsSync(`${index}.br`) ? brotliSize(index) : fs.statSync(index).size;
  return { indexBytes, entry, chunks };
}

const percentile = (values: number[], fraction: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
};

const measured = sizes();
const entryTotal = measured.indexBytes + measured.entry.reduce((sum, file) => sum + file.bytes, 0);
console.log(
  `first load (brotli): ${kib(entryTotal)} — index.html ${kib(measured.indexBytes)}, ${measured.entry
    .map((file) => `${file.name} ${kib(file.bytes)}`)
    .join(', ')}`,
);
console.log('chunks (brotli, fetched when their view opens):');
for (const chunk of measured.chunks) console.log(`  ${chunk.name.padEnd(40)} ${kib(chunk.bytes)}`);

const server = await startDashboardServer({ AGENTD_RATE_LIMITS: 'off' });
const browser = await openBrowser();
try {
  for (let index = 0; index < agentCount; index += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, agentCount - index) }, (_, offset) =>
        createAgent(server, { name: `Agent ${String(index + offset).padStart(4, '0')}` }),
      ),
    );
  }
  const { page } = browser;
  const readMark = () =>
    page.evaluate(() => (globalThis as any).performance.getEntriesByName('agents-list-ready')[0]?.startTime ?? null);
  const waitForList = async () => {
    await page.waitForFunction(
      () => (globalThis as any).performance.getEntriesByName('agents-list-ready').length > 0,
      undefined,
      { timeout: 30_000 },
    );
    return Math.round((await readMark())!);
  };

  await signIn(page, server);
  await page
    .locator('.list-status')
    .filter({ hasText: `${agentCount} agents` })
    .waitFor();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const measure = async (cold: boolean) => {
    const times: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      // Cold: nothing cached, every asset fetched again (the key stays in the tab's session storage).
      if (cold) await cdp.send('Network.clearBrowserCache');
      await page.reload();
      times.push(await waitForList());
    }
    console.log(
      `agents list interactive with ${agentCount} agents, ${cold ? 'cold cache' : 'warm cache'}, ${rounds} reloads ` +
        `(ms from navigation start): p50 ${percentile(times, 0.5)}, p90 ${percentile(times, 0.9)}, ` +
        `min ${Math.min(...times)}, max ${Math.max(...times)}`,
    );
    console.log(`  each: ${times.join(', ')}`);
  };
  await measure(false);
  await measure(true);
} finally {
  await browser.close();
  await server.stop();
}
