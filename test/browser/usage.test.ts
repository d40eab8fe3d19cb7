import assert from 'node:assert/strict';
import { text } from 'node:stream/consumers';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissing, screenshot, type OpenBrowser } from '../helpers/browser.js';

import { waitFor } from '../helpers/wait.js';
import { assertAccessible } from './accessibility.js';
import { assertNoConsoleErrors, createAgent, signIn, type DashboardServer, useDashboard } from './dashboard-helpers.js';

/** The Usage view: messages and tokens per day and model, drawn, tabled and downloaded as CSV. */
describe('the usage view', { skip: chromiumMissing ?? false }, () => {
  let server: DashboardServer;
  let browser: OpenBrowser;
  let page: Page;

  useDashboard((dashboard) => ({ server, browser, page } = dashboard));

  const openUsage = async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Usage', exact: true }).click();
    await page.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();
  };

  it('draws the messages of the last days and downloads them as the CSV the table shows', async () => {
    await signIn(page, server);
    await openUsage();
    await page.getByText('No messages in this range.').waitFor();
    await assertAccessible(page, 'usage empty');

    const first = await createAgent(server, { name: 'Talker' });
    const second = await createAgent(server, { name: 'Listener' });
    for (const [agent, count] of [
      [first, 3],
      [second, 1],
    ] as const) {
      for (let index = 0; index < count; index += 1) {
        const sent = await server.api('POST', `/v1/agents/${agent.id}/messages`, { text: `Hello ${index}` });
        assert.equal(sent.status, 200, JSON.stringify(sent.body));
      }
    }
    // The counts reach the usage once the server has flushed its rollups (every few seconds).
    let expected: any[] = [];
    const took = await waitFor(
      async () => {
        const daily = await server.api('GET', '/v1/metrics/usage/daily');
        assert.equal(daily.status, 200, JSON.stringify(daily.body));
        expected = daily.body.data;
        return expected.reduce((sum, row) => sum + row.messages, 0) === 4;
      },
      30_000,
      // Gently: the route has a per-account rate limit.
      500,
    );
    assert.notEqual(took, null, 'the messages reached the usage');
    assert.equal(expected.length, 1, 'both agents use the default model: one row for today');

    await page.reload();
    await page.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();
    const row = expected[0];
    await page
      .getByRole('status')
      .filter({ hasText: `4 messages and ${row.inputTokens + row.outputTokens} tokens` })
      .waitFor();
    await page.locator('.chart-area[data-drawn="true"] canvas').nth(1).waitFor();
    assert.equal(await page.locator('.chart-area[data-drawn="true"]').count(), 2);
    const table = page.getByRole('table', { name: 'Usage per day and model' });
    assert.equal(await table.locator('tbody tr').count(), 1);
    assert.equal(await table.locator('tbody tr th').innerText(), row.date);
    await assertAccessible(page, 'usage charts');
    await screenshot(page, 'usage', { documented: true });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^agentd-usage-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    // Read through the browser's connection: it runs as a server of its own, so the file is not a local path.
    const csv = await text(await download.createReadStream());
    assert.deepEqual(csv.split('\r\n'), [
      'date,model,agents,messages,failed_messages,tool_calls,input_tokens,output_tokens,cost_usd,unpriced_messages',
      [row.date, row.model, 2, 4, 0, 0, row.inputTokens, row.outputTokens, row.costUsd, row.unpricedMessages].join(','),
      '',
    ]);

    // A range without traffic, and a range the form refuses.
    await page.getByLabel('First day').fill('2020-01-01');
    await page.getByLabel('Last day').fill('2020-01-31');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByText('No messages in this range.').waitFor();
    await page.getByLabel('First day').fill('2020-02-01');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('alert').filter({ hasText: 'Choose a first day on or before the last day.' }).waitFor();
    await assertAccessible(page, 'usage range refused');
    assertNoConsoleErrors(browser.consoleErrors);
  });
});
