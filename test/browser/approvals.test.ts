import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissing, screenshot, type OpenBrowser } from '../helpers/browser.js';

import { assertAccessible } from './accessibility.js';
import { assertNoConsoleErrors, createAgent, signIn, type DashboardServer, useDashboard } from './dashboard-helpers.js';

/**
 * The Approvals view as a person deciding uses it: the tool calls waiting
 * across the account's agents, with their arguments and time left; an
 * approved call runs and its reply goes on, a denied one never runs, and
 * each leaves the pending list. The builtin model asks for the `calculate`
 * tool with a `/tool` line, and the math plugin's entry marks it for approval.
 */
describe("the dashboard's approvals", { skip: chromiumMissing ?? false }, () => {
  let server: DashboardServer;
  let browser: OpenBrowser;
  let page: Page;

  useDashboard((dashboard) => ({ server, browser, page } = dashboard));

  const pause = async (agentId: string, expression: string) => {
    const sent = await server.api('POST', `/v1/agents/${agentId}/messages`, {
      text: `/tool calculate {"expression":"${expression}"}`,
      userId: 'kim',
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(sent.body.finishReason, 'approval_required');
    return sent.body.approvals[0].approvalId as string;
  };
  const pendingIds = async () =>
    (await server.api('GET', '/v1/approvals?status=pending')).body.data.map((each: { id: string }) => each.id);

  it('lists pending approvals across agents; approve runs the tool and the reply goes on, deny never runs it', async () => {
    await signIn(page, server);
    await page.goto(`${server.url}/#/approvals`);
    await page.getByRole('status').filter({ hasText: 'Nothing waits for a decision.' }).waitFor();
    await assertAccessible(page, 'approvals, empty');

    const cashier = await createAgent(server, {
      name: 'Cashier',
      plugins: [{ name: 'math', approval: { tools: ['calculate'] } }],
    });
    const auditor = await createAgent(server, {
      name: 'Auditor',
      plugins: [{ name: 'math', approval: { tools: '*', expiresAfterSeconds: 3600 } }],
    });
    const elsewhere = await pause(cashier.id, '2+2');
    const approved = await pause(cashier.id, '6*7');
    const denied = await pause(auditor.id, '1/0');

    await page.getByRole('button', { name: 'Refresh' }).click();
    const pending = page.getByRole('list', { name: 'Pending approvals' });
    const cashierItem = pending.getByRole('listitem').filter({ hasText: '6*7' });
    const auditorItem = pending.getByRole('listitem').filter({ hasText: 'Auditor' });
    await cashierItem.waitFor();
    assert.equal(await pending.getByRole('listitem').count(), 3);
    assert.match(await cashierItem.getByRole('heading').innerText(), /calculate for Cashier/);
    assert.match(await cashierItem.locator('.approval-input').innerText(), /"expression": "6\*7"/);
    assert.match(await cashierItem.innerText(), /by kim/);
    assert.match(await cashierItem.locator('time').innerText(), /^23 h 5\d min left$/);
    assert.match(await auditorItem.locator('time').innerText(), /^5\d min left$/);
    await assertAccessible(page, 'approvals, pending');
    await screenshot(page, 'approvals', { documented: true });

    // Someone decided one meanwhile (another tab, the API): deciding it here says so where it was asked.
    const elsewhereItem = pending.getByRole('listitem').filter({ hasText: '2+2' });
    assert.equal(
      (await server.api('POST', `/v1/agents/${cashier.id}/approvals/${elsewhere}`, { decision: 'approve' })).status,
      200,
    );
    await elsewhereItem.getByRole('button', { name: 'Approve' }).click();
    await elsewhereItem.getByRole('alert').waitFor();
    await assertAccessible(page, 'approvals, a refused decision');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await elsewhereItem.waitFor({ state: 'detached' });

    await cashierItem.getByRole('button', { name: 'Approve' }).click();
    const decided = page.getByRole('region', { name: 'Decided here' });
    const approvedRun = decided.getByRole('listitem').filter({ hasText: '6*7' });
    await approvedRun.locator('.decision', { hasText: 'approved' }).waitFor();
    await approvedRun.locator('.run-status', { hasText: 'completed' }).waitFor();
    assert.match(await approvedRun.locator('.run-reply').innerText(), /calculate returned/);
    assert.match(await approvedRun.locator('.run-tools').innerText(), /"result":"42"/);
    await cashierItem.waitFor({ state: 'detached' });
    assert.equal(await pending.getByRole('listitem').count(), 1);
    assert.deepEqual(await pendingIds(), [denied]);
    const approval = (await server.api('GET', `/v1/agents/${cashier.id}/approvals/${approved}`)).body;
    assert.equal(approval.status, 'approved');
    assert.equal(
      (await server.api('GET', `/v1/agents/${cashier.id}/runs/${approval.resumedRunId}`)).body.status,
      'completed',
    );

    await auditorItem.getByLabel('Reason (optional, told to the model)').fill('no division by zero');
    await auditorItem.getByRole('button', { name: 'Deny' }).click();
    const deniedRun = decided.getByRole('listitem').filter({ hasText: '1/0' });
    await deniedRun.locator('.decision', { hasText: 'denied' }).waitFor();
    await deniedRun.locator('.run-status', { hasText: 'completed' }).waitFor();
    assert.match(await deniedRun.locator('.run-tools').innerText(), /denied: no division by zero/);
    await page.getByRole('status').filter({ hasText: 'Nothing waits for a decision.' }).waitFor();
    assert.deepEqual(await pendingIds(), []);
    const deniedApproval = (await server.api('GET', `/v1/agents/${auditor.id}/approvals/${denied}`)).body;
    assert.deepEqual([deniedApproval.status, deniedApproval.reason], ['denied', 'no division by zero']);
    await assertAccessible(page, 'approvals, decided');
    assertNoConsoleErrors(browser.consoleErrors);
  });
});
