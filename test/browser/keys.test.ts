import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissing, screenshot, type OpenBrowser } from '../helpers/browser.js';

import { assertAccessible } from './accessibility.js';
import { assertNoConsoleErrors, signIn, type DashboardServer, useDashboard } from './dashboard-helpers.js';

/**
 * The API keys view against a real agentd process: the user creates a key
 * with the scopes they tick, sees it once, and revokes it; the API then
 * refuses it.
 */
describe('the API keys view', { skip: chromiumMissing ?? false }, () => {
  let server: DashboardServer;
  let browser: OpenBrowser;
  let page: Page;

  useDashboard((dashboard) => ({ server, browser, page } = dashboard));

  it('creates a key with the scopes ticked, shows it once, and revokes it so that the API refuses it', async () => {
    await signIn(page, server);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
    const table = page.getByRole('table', { name: 'API keys of this account' });
    await table.getByText('this dashboard is signed in with it').waitFor();
    await assertAccessible(page, 'API keys');

    await page.getByRole('button', { name: 'New API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API key' });
    await dialog.getByRole('checkbox', { name: 'agents:read' }).waitFor();
    // No scope ticked: the server's error shows at the scopes.
    await dialog.getByLabel('Name').fill('reporting');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await dialog.locator('.field-error').waitFor();
    await assertAccessible(page, 'new key form with errors');

    await dialog.getByRole('checkbox', { name: 'agents:read' }).check();
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('region', { name: 'New API key' });
    const key = await shown.getByRole('textbox').inputValue();
    assert.match(key, /^agd_/);
    const row = table.getByRole('row', { name: /reporting/ });
    await row.getByText('agents:read').waitFor();
    assert.equal(await row.getByText('agents:write').count(), 0);
    await assertAccessible(page, 'API keys with a new key shown');
    await screenshot(page, 'api-keys', { documented: true });
    await shown.getByRole('button', { name: 'I have saved it' }).click();

    // The new key works, for what its scope allows.
    const withKey = (method: string) =>
      fetch(`${server.url}/v1/agents`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: method === 'POST' ? JSON.stringify({ name: 'Nope' }) : undefined,
      });
    assert.equal((await withKey('GET')).status, 200);
    assert.equal((await withKey('POST')).status, 403);

    await row.getByRole('button', { name: 'Revoke reporting' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke reporting?' });
    await assertAccessible(page, 'revoke confirmation');
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('status').getByText('reporting was revoked.').waitFor();
    // The key stays listed, marked revoked, with when it was last used.
    await row.getByText(/^revoked/).waitFor();
    assert.equal(await row.getByRole('button', { name: 'Revoke reporting' }).count(), 0);
    assert.notEqual(await row.getByRole('cell').nth(3).innerText(), 'never');
    await assertAccessible(page, 'API keys with a revoked key');
    assert.equal((await withKey('GET')).status, 401);
    assertNoConsoleErrors(browser.consoleErrors);
  });
});
