import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissing, screenshot, type OpenBrowser } from '../helpers/browser.js';

import { assertAccessible } from './accessibility.js';
import { assertNoConsoleErrors, createAgent, signIn, type DashboardServer, useDashboard } from './dashboard-helpers.js';

/**
 * An agent's Platforms tab against a real agentd process: a generic webhook
 * connector (which runs without reaching anything) and a Telegram one whose
 * Bot API is a closed loopback port (the test servers' default), so one
 * entry runs and one fails with its reason; the user switches the first off
 * and on again.
 */
describe("an agent's Platforms tab", { skip: chromiumMissing ?? false }, () => {
  let server: DashboardServer;
  let browser: OpenBrowser;
  let page: Page;

  useDashboard((dashboard) => ({ server, browser, page } = dashboard));

  it('shows each connector running or failing with its reason, and disables and enables one', async () => {
    const agent = await createAgent(server, {
      name: 'Connected',
      status: 'active',
      platforms: [
        { type: 'webhook', secrets: { signingSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' } },
        { type: 'telegram', secrets: { botToken: '123456:not-a-real-token' } },
      ],
    });
    await signIn(page, server);
    await page.goto(`${server.url}/#/agents/${agent.id}/platforms`);
    const table = page.getByRole('table', { name: 'Platform connectors of Connected' });
    const webhook = table.getByRole('row', { name: /^webhook/ });
    const telegram = table.getByRole('row', { name: /^telegram/ });
    // A connector starts within a second or so, much later on a machine busy with other work.
    await webhook.getByText('running', { exact: true }).waitFor({ timeout: 60_000 });
    // The failing connector says why; the tab reads the report again after a refresh.
    await page.getByRole('button', { name: 'Refresh' }).click();
    await telegram.getByText('error', { exact: true }).waitFor();
    await telegram.getByText(/Telegram is unreachable/).waitFor();
    await assertAccessible(page, 'platforms');
    await screenshot(page, 'agent-platforms', { documented: true });

    await webhook.getByRole('button', { name: 'Disable webhook' }).click();
    await page.getByRole('status').getByText('webhook disabled.').waitFor();
    await webhook.getByText('stopped', { exact: true }).waitFor();
    await webhook.getByText('the platform is disabled').waitFor();
    const stored = (await server.api('GET', `/v1/agents/${agent.id}`)).body;
    assert.equal(stored.platforms[0].enabled, false);
    // The other entry and the secrets (sent back masked) are kept as they were.
    assert.equal(stored.platforms[1].enabled, true);
    assert.match(stored.platforms[0].secrets.signingSecret, /^••••/);
    await assertAccessible(page, 'platforms with one disabled');

    await webhook.getByRole('button', { name: 'Enable webhook' }).click();
    await webhook.getByText('running', { exact: true }).waitFor({ timeout: 60_000 });
    assert.equal((await server.api('GET', `/v1/agents/${agent.id}`)).body.platforms[0].enabled, true);
    assertNoConsoleErrors(browser.consoleErrors);
  });
});
