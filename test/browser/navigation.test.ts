import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissing, type OpenBrowser } from '../helpers/browser.js';

import { assertAccessible, axeViolations } from './accessibility.js';
import { assertNoConsoleErrors, createAgent, signIn, type DashboardServer, useDashboard } from './dashboard-helpers.js';

/** The navigation's entries and the heading each view opens with. */
const sections: Array<[string, string]> = [
  ['Agents', 'Agents'],
  ['Knowledge', 'Knowledge'],
  ['Webhooks', 'Webhooks'],
  ['API keys', 'API keys'],
  ['Runs', 'Runs'],
  ['Events', 'Events'],
  ['Usage', 'Usage'],
  ['Approvals', 'Approvals'],
  ['Characters', 'Characters'],
];
const agentTabs = [
  'Chat',
  'History',
  'Memory',
  'Tasks',
  'Runs',
  'Platforms',
  'Metrics',
  'Connect',
  'Edit',
  'Versions',
  'Evals',
];

const focusedText = (page: Page) =>
  page.evaluate(() => (globalThis as any).document.activeElement?.textContent?.trim() ?? '');

/**
 * Every view is reached from the navigation, lands focus on its heading
 * (where keyboard and screen reader users continue), and has no serious or
 * critical accessibility violation as axe-core sees it.
 */
describe('the dashboard navigation', { skip: chromiumMissing ?? false }, () => {
  let server: DashboardServer;
  let browser: OpenBrowser;
  let page: Page;

  useDashboard((dashboard) => ({ server, browser, page } = dashboard));

  it('reaches every view from the navigation, with focus on its heading and no serious axe violation', async () => {
    await signIn(page, server);
    const navigation = page.getByRole('navigation', { name: 'Main' });
    for (const [link, heading] of sections) {
      await navigation.getByRole('link', { name: link, exact: true }).click();
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await page.waitForFunction(
        (text) => (globalThis as any).document.activeElement?.textContent?.trim() === text,
        heading,
      );
      assert.equal(await navigation.locator('[aria-current="page"]').innerText(), link);
      // Views that load data settle before they are checked: no loading line left.
      await page.locator('[role="status"]', { hasText: /^Loading/ }).waitFor({ state: 'detached' });
      await assertAccessible(page, link);
    }
    // The check can fail: an input without a label is reported.
    await page.evaluate(() => {
      const document = (globalThis as any).document;
      document.querySelector('main').append(document.createElement('input'));
    });
    assert.ok((await axeViolations(page)).some((violation) => violation.id === 'label'));
    assertNoConsoleErrors(browser.consoleErrors);
  });

  it("reaches every tab of an agent's page, each without a serious axe violation", async () => {
    const agent = await createAgent(server, { name: 'Navigator' });
    await signIn(page, server);
    await page.getByRole('link', { name: 'Navigator' }).click();
    await page.getByRole('heading', { name: /Navigator/, level: 1 }).waitFor();
    assert.match(await focusedText(page), /^Navigator/);
    const tabs = page.getByRole('navigation', { name: 'Agent views' });
    for (const tab of agentTabs) {
      await tabs.getByRole('link', { name: tab, exact: true }).click();
      await page.waitForFunction(
        (href) => (globalThis as any).location.hash === href,
        `#/agents/${agent.id}/${tab.toLowerCase()}`,
      );
      // The fragment changes first; the page follows on its hashchange event.
      await tabs.locator('[aria-current="page"]', { hasText: new RegExp(`^${tab}$`) }).waitFor();
      // A tab may load several things at once (Evals: datasets, versions, evals): every loading line gone.
      await page.waitForFunction(
        () =>
          ![...(globalThis as any).document.querySelectorAll('[role="status"]')].some((status: any) =>
            /^Loading/.test(status.textContent.trim()),
          ),
      );
      await assertAccessible(page, `agent ${tab}`);
    }
    assertNoConsoleErrors(browser.consoleErrors);
  });
});
