import assert from 'node:assert/strict';
import fs from 'node:fs';
import { text } from 'node:stream/consumers';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissing, screenshot, type OpenBrowser } from '../helpers/browser.js';

import { assertAccessible } from './accessibility.js';
import { assertNoConsoleErrors, signIn, type DashboardServer, useDashboard } from './dashboard-helpers.js';

const character = {
  name: 'Ada Lovelace',
  bio: ['Writes the first programs.', 'Explains engines patiently.'],
  adjectives: ['precise', 'curious'],
  topics: ['analytical engines'],
  settings: { secrets: { SOLANA_PRIVATE_KEY: 'solana-key-never-shown-9f8e' } },
};

/** The Characters view: a character file becomes an agent, and an agent's export imports again. */
describe('the characters view', { skip: chromiumMissing ?? false }, () => {
  let server: DashboardServer;
  let browser: OpenBrowser;
  let page: Page;
  let scratch: string;

  useDashboard((dashboard) => ({ server, browser, page } = dashboard));
  beforeEach(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-characters-'));
  });
  afterEach(() => {
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('imports a character file as an agent, reports what it left out, and exports a file that imports again', async () => {
    await signIn(page, server);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Characters', exact: true }).click();
    await page.getByRole('heading', { name: 'Characters', level: 1 }).waitFor();
    await page.getByText('No agents to export yet').waitFor();
    await assertAccessible(page, 'characters empty');

    // Not JSON: refused in the page, nothing sent.
    await page.getByLabel('Character JSON').fill('{ "name": ');
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByRole('alert').filter({ hasText: 'The character file is not valid JSON.' }).waitFor();
    // JSON the server refuses: its problem is shown.
    await page.getByLabel('Character JSON').fill('{ "bio": "no name" }');
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByRole('alert').filter({ hasText: /name/ }).waitFor();
    await assertAccessible(page, 'characters import refused');

    const file = path.join(scratch, 'ada.character.json');
    fs.writeFileSync(file, JSON.stringify(character, null, 2));
    await page.getByLabel('Character file').setInputFiles(file);
    await page.waitForFunction(() =>
      ((globalThis as any).document.getElementById('character-text')?.value ?? '').includes('Ada Lovelace'),
    );
    await page.getByRole('button', { name: 'Import' }).click();
    const result = page.getByRole('region', { name: 'Imported Ada Lovelace' });
    await result.waitFor();
    assert.equal(await page.evaluate(() => (globalThis as any).document.activeElement?.id), 'import-result-title');
    assert.match(await result.innerText(), /settings\.secrets\.SOLANA_PRIVATE_KEY/);
    assert.ok(!(await page.content()).includes('solana-key-never-shown'), 'the secret is named, never shown');
    const agents = (await server.api('GET', '/v1/agents')).body.data as any[];
    assert.deepEqual(
      agents.map((agent) => agent.name),
      ['Ada Lovelace'],
    );
    assert.deepEqual(agents[0].bio, character.bio);
    await assertAccessible(page, 'characters imported');
    await screenshot(page, 'characters', { documented: true });

    await page.getByLabel('Agent', { exact: true }).selectOption({ label: 'Ada Lovelace' });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download character file' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'ada-lovelace.character.json');
    await page.getByRole('status').filter({ hasText: 'Downloaded ada-lovelace.character.json' }).waitFor();
    // Read through the browser's connection: it runs as a server of its own, so the file is not a local path.
    const exported = JSON.parse(await text(await download.createReadStream()));
    assert.equal(exported.name, 'Ada Lovelace');
    assert.deepEqual(exported.bio, character.bio);

    // The exported file imports again, through the same form, as an agent like the first.
    const again = path.join(scratch, 'exported.json');
    fs.writeFileSync(again, JSON.stringify(exported));
    await page.getByLabel('Character file').setInputFiles(again);
    await page.waitForFunction(() =>
      ((globalThis as any).document.getElementById('character-text')?.value ?? '').includes('Ada Lovelace'),
    );
    await page.getByRole('button', { name: 'Import' }).click();
    await page
      .getByRole('region', { name: 'Imported Ada Lovelace' })
      .getByText('Nothing: every field was imported.')
      .waitFor();
    const both = (await server.api('GET', '/v1/agents')).body.data as any[];
    assert.equal(both.length, 2);
    assert.deepEqual(both[0].bio, both[1].bio);
    assert.deepEqual(both[0].personality, both[1].personality);
    await page.getByRole('link', { name: 'Open Ada Lovelace' }).click();
    await page.getByRole('heading', { name: /Ada Lovelace/, level: 1 }).waitFor();
    assertNoConsoleErrors(browser.consoleErrors);
  });
});
