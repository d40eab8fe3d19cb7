import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissing, type OpenBrowser } from '../helpers/browser.js';

import { assertAccessible } from './accessibility.js';
import { assertNoConsoleErrors, createAgent, signIn, type DashboardServer, useDashboard } from './dashboard-helpers.js';

/**
 * An agent's Versions tab as a user works it: the versions listed, what one
 * changed, and an earlier one restored after a confirmation, with the
 * agent's field back as it was.
 */
describe("the dashboard's agent versions", { skip: chromiumMissing ?? false }, () => {
  let server: DashboardServer;
  let browser: OpenBrowser;
  let page: Page;

  useDashboard((dashboard) => ({ server, browser, page } = dashboard));

  it('shows what a version changed and restores an earlier one, with the field back', async () => {
    const agent = await createAgent(server, { name: 'Versa', bio: ['The original bio.'] });
    const patched = await server.api('PATCH', `/v1/agents/${agent.id}`, { bio: ['A rewritten bio.'] });
    assert.equal(patched.status, 200);
    await signIn(page, server);
    await page.goto(`${server.url}/#/agents/${agent.id}/versions`);
    const current = page.getByRole('row', { name: /^2 \(current\)/ });
    await current.waitFor();
    assert.match(await current.innerText(), /updated/);
    assert.match(await current.innerText(), /bio/);
    await assertAccessible(page, 'versions');

    await current.getByRole('button', { name: 'Changes in version 2' }).click();
    const diff = page.getByRole('table', { name: 'From version 1 to version 2' });
    await diff.waitFor();
    assert.match(await diff.getByRole('row', { name: /bio\[0\]/ }).innerText(), /changed\s+"A rewritten bio\."/);

    const first = page.getByRole('row', { name: /^1 / });
    await first.getByRole('button', { name: 'Restore version 1' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore version 1?' });
    await dialog.waitFor();
    await assertAccessible(page, 'restore confirmation');
    await dialog.getByRole('button', { name: 'Restore', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('status').filter({ hasText: 'Version 1 restored as version 3.' }).waitFor();
    await page.getByRole('row', { name: /^3 \(current\)/ }).waitFor();
    assert.match(await page.getByRole('row', { name: /^3 / }).innerText(), /restored from version 1/);

    // The agent's form shows the bio of version 1 again, and the server holds it.
    await page.getByRole('link', { name: 'Edit' }).click();
    const bio = page.getByLabel('Bio');
    await bio.waitFor();
    assert.equal(await bio.inputValue(), 'The original bio.');
    const stored = await server.api('GET', `/v1/agents/${agent.id}`);
    assert.deepEqual([stored.body.bio, stored.body.version], [['The original bio.'], 3]);
    assertNoConsoleErrors(browser.consoleErrors);
  });
});
