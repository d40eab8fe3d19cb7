import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissing, screenshot, type OpenBrowser } from '../helpers/browser.js';

import { assertAccessible } from './accessibility.js';
import { assertNoConsoleErrors, signIn, type DashboardServer, useDashboard } from './dashboard-helpers.js';

if (chromiumMissing) console.log(`note: ${chromiumMissing}`);

/** The focused element as a test reads it: its id, or the text of a link or button. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = (globalThis as any).document.activeElement;
    return { id: element?.id ?? '', text: (element?.textContent ?? '').trim(), value: element?.value ?? '' };
  });

/** Focus moved by the page (after its next render) lands on the element with this id. */
const focusLandsOn = (page: Page, id: string) =>
  page.waitForFunction((expected) => (globalThis as any).document.activeElement?.id === expected, id);

/** Presses Tab (or Shift+Tab) until the focus is where `reached` says, as a keyboard user would. */
async function tabTo(
  page: Page,
  reached: (element: { id: string; text: string }) => boolean,
  key: 'Tab' | 'Shift+Tab' = 'Tab',
): Promise<void> {
  for (let presses = 0; presses < 150; presses += 1) {
    if (reached(await focused(page))) return;
    await page.keyboard.press(key);
  }
  assert.fail(`${key} never reached the element; focus is on ${JSON.stringify(await focused(page))}`);
}

/**
 * The agent form as a user meets it: plugins and platforms picked from what
 * the server offers and configured through forms made from their schemas.
 */
describe('the agent form', { skip: chromiumMissing ?? false }, () => {
  let server: DashboardServer;
  let browser: OpenBrowser;
  let page: Page;

  useDashboard((dashboard) => ({ server, browser, page } = dashboard));

  it('adds the http plugin through its generated form, with the error of a bad value at its field', async () => {
    const secret = 'fetch-secret-5e7f9b2d';
    await signIn(page, server);
    await page.getByRole('link', { name: 'New agent' }).first().click();
    await page.getByRole('heading', { name: 'New agent', level: 1 }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Fetcher');

    await page.getByRole('button', { name: 'Add plugin' }).click();
    // The plugin is chosen from what the server offers, not typed.
    const choice = page.getByLabel('Plugin', { exact: true });
    assert.ok((await choice.locator('option').allInnerTexts()).includes('mcp'));
    await choice.selectOption('http');
    const plugin = page.getByRole('group', { name: 'Plugin 1 (http)' });
    // Defaults are filled in from the schema.
    assert.equal(await plugin.getByLabel('Timeout (ms)').inputValue(), '10000');
    await plugin.getByRole('button', { name: 'Add allowed host' }).click();
    await plugin.getByLabel('Allowed host 1').fill('not a host!');
    await plugin.getByRole('button', { name: 'Add secret', exact: true }).click();
    await plugin.getByLabel('Secret name').fill('exampleToken');
    const secretValue = plugin.getByLabel('Value of exampleToken');
    assert.equal(await secretValue.getAttribute('type'), 'password');
    await secretValue.fill(secret);
    await page.getByRole('button', { name: 'Create agent' }).click();

    // The server's error for /plugins/0/config/allowedHosts/0 is shown at that input.
    const host = plugin.getByLabel('Allowed host 1');
    await page.locator('#field-plugins-0-config-allowedHosts-0-error').waitFor();
    assert.equal(await host.getAttribute('aria-invalid'), 'true');
    assert.match(
      await page.locator('#field-plugins-0-config-allowedHosts-0-error').innerText(),
      /^must be a host name, or \*\. and a domain$/,
    );
    assert.match((await host.getAttribute('aria-describedby')) ?? '', /allowedHosts-0-error/);
    await focusLandsOn(page, 'field-plugins-0-config-allowedHosts-0');
    await assertAccessible(page, 'agent form with errors');
    await page.locator('#field-plugins-0-config-allowedHosts').scrollIntoViewIfNeeded();
    await screenshot(page, 'agent-form-plugin-error', { documented: true });
    assert.equal((await server.api('GET', '/v1/agents')).body.pagination.total, 0, 'nothing was created');

    await host.fill('api.example.com');
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByRole('heading', { name: /Fetcher/, level: 1 }).waitFor();
    const [agent] = (await server.api('GET', '/v1/agents')).body.data;
    assert.deepEqual(agent.plugins, [
      {
        name: 'http',
        enabled: true,
        config: { allowedHosts: ['api.example.com'], timeoutMs: 10_000, maxResponseBytes: 1_048_576 },
        secrets: { exampleToken: '••••9b2d' },
      },
    ]);

    // On the edit form the secret is write-only: only its mask is shown, and saving without typing keeps it.
    await page.goto(`${server.url}/#/agents/${agent.id}/edit`);
    await page.getByRole('heading', { name: 'Edit Fetcher' }).waitFor();
    const stored = page.getByLabel('Value of exampleToken');
    assert.equal(await stored.inputValue(), '');
    assert.equal(await stored.getAttribute('placeholder'), '••••9b2d');
    assert.ok(!(await page.content()).includes(secret));
    await page.getByRole('group', { name: 'Plugin 1 (http)' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'agent-form-edit', { documented: true });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const after = (await server.api('GET', `/v1/agents/${agent.id}`)).body;
    assert.deepEqual(after.plugins[0].secrets, { exampleToken: '••••9b2d' });
    assert.deepEqual(after.plugins[0].config.allowedHosts, ['api.example.com']);
    assertNoConsoleErrors(browser.consoleErrors);
  });

  it('creates an agent with the keyboard alone', async () => {
    await signIn(page, server);
    await tabTo(page, ({ text }) => text === 'New agent');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'New agent', level: 1 }).waitFor();

    await tabTo(page, ({ id }) => id === 'field-name');
    await page.keyboard.type('Walker');
    await page.keyboard.press('Tab');
    assert.equal((await focused(page)).id, 'field-status');
    await page.keyboard.press('ArrowDown');
    assert.equal((await focused(page)).value, 'inactive');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('End');
    await page.keyboard.type(' Two');

    await tabTo(page, ({ text }) => text === 'Add plugin');
    await page.keyboard.press('Space');
    // Focus moves to the new entry's choice of plugin; arrow keys pick one.
    await focusLandsOn(page, 'field-plugins-0-name');
    for (let presses = 0; presses < 10 && (await focused(page)).value !== 'clock'; presses += 1) {
      await page.keyboard.press('ArrowDown');
    }
    assert.equal((await focused(page)).value, 'clock');
    await tabTo(page, ({ id }) => id === 'field-plugins-0-config-defaultTimeZone');
    assert.equal((await focused(page)).value, 'UTC');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Europe/Lisbon');
    await page.keyboard.press('Enter');

    await page.getByRole('heading', { name: /Walker Two/, level: 1 }).waitFor();
    const [agent] = (await server.api('GET', '/v1/agents')).body.data;
    assert.equal(agent.name, 'Walker Two');
    assert.equal(agent.status, 'inactive');
    assert.deepEqual(agent.plugins, [
      { name: 'clock', enabled: true, config: { defaultTimeZone: 'Europe/Lisbon' }, secrets: {} },
    ]);
    assert.match(page.url(), new RegExp(`#/agents/${agent.id}`));
    assertNoConsoleErrors(browser.consoleErrors);
  });
});
