import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissing, screenshot, type OpenBrowser } from '../helpers/browser.js';

import { assertAccessible } from './accessibility.js';
import { assertNoConsoleErrors, createAgent, signIn, type DashboardServer, useDashboard } from './dashboard-helpers.js';

/** The Events view: the account's trail narrowed by kind and agent, older pages by cursor, details on demand. */
describe('the event trail view', { skip: chromiumMissing ?? false }, () => {
  let server: DashboardServer;
  let browser: OpenBrowser;
  let page: Page;

  useDashboard((dashboard) => ({ server, browser, page } = dashboard));

  const rows = () => page.getByRole('table', { name: 'Events, newest first' }).locator('tbody tr');
  const cellTexts = (column: number) =>
    rows().evaluateAll((elements, index) => elements.map((row: any) => row.children[index].textContent.trim()), column);

  it('narrows the trail to a kind and an agent across two pages, and opens an event', async () => {
    const renamed = await createAgent(server, { name: 'Renamed often' });
    const other = await createAgent(server, { name: 'Other' });
    // 25 renames: more than the view's page of 20, so the filtered trail takes two pages.
    for (let index = 1; index <= 25; index += 1) {
      const patched = await server.api('PATCH', `/v1/agents/${renamed.id}`, { bio: `Version ${index}` });
      assert.equal(patched.status, 200);
    }
    for (let index = 1; index <= 3; index += 1) {
      assert.equal((await server.api('PATCH', `/v1/agents/${other.id}`, { bio: `Other ${index}` })).status, 200);
    }
    assert.equal((await server.api('PATCH', `/v1/agents/${other.id}`, { status: 'inactive' })).status, 200);

    await signIn(page, server);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Events', exact: true }).click();
    await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();
    await rows().first().waitFor();
    assert.equal(await rows().count(), 20);
    await page.getByRole('button', { name: 'Load older events' }).waitFor();
    await assertAccessible(page, 'events list');

    await page.getByLabel('Kind', { exact: true }).selectOption('agent.updated');
    await page.getByLabel('Agent', { exact: true }).selectOption({ label: 'Renamed often' });
    await page.getByRole('status').filter({ hasText: '20 events shown; older ones remain.' }).waitFor();
    await page.getByRole('button', { name: 'Load older events' }).click();
    await page.getByRole('status').filter({ hasText: '25 events shown, the whole trail.' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Load older events' }).count(), 0);
    assert.deepEqual(new Set(await cellTexts(1)), new Set(['agent.updated']));
    assert.deepEqual(new Set(await cellTexts(2)), new Set(['Renamed often']));

    // The newest event's details: which fields changed, its ids and its data.
    const newest = rows().first();
    await newest.getByText('Fields: bio').click();
    await newest.locator('.event-data').waitFor();
    assert.match(await newest.locator('.event-data').innerText(), /"fields": \[\s*"bio"\s*\]/);
    await assertAccessible(page, 'events filtered, details open');
    await page.evaluate(() => (globalThis as any).scrollTo(0, 0));
    await screenshot(page, 'events', { documented: true });

    // Another kind of the other agent: its status change, with the reason in its summary.
    await page.getByLabel('Kind', { exact: true }).selectOption('agent.status_changed');
    await page.getByLabel('Agent', { exact: true }).selectOption({ label: 'Other' });
    await page.getByRole('status').filter({ hasText: '1 event shown, the whole trail.' }).waitFor();
    assert.deepEqual(await cellTexts(2), ['Other']);
    assert.match((await cellTexts(4))[0]!, /active → inactive/);

    await page.getByLabel('Kind', { exact: true }).selectOption('tool.transfer');
    await page.getByText('No events match these filters.').waitFor();
    await assertAccessible(page, 'events empty');
    assertNoConsoleErrors(browser.consoleErrors);
  });
});
