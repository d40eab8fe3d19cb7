import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissing, screenshot, type OpenBrowser } from '../helpers/browser.js';

import { assertAccessible } from './accessibility.js';
import { assertNoConsoleErrors, createAgent, signIn, type DashboardServer, useDashboard } from './dashboard-helpers.js';

const focusedLabel = (page: Page) =>
  page.evaluate(() => {
    const element = (globalThis as any).document.activeElement;
    return element?.labels?.[0]?.textContent?.trim() ?? element?.textContent?.trim() ?? '';
  });

/**
 * An agent's Tasks tab as a user works it: a task made through the form
 * (a schedule the server refuses is shown at its field), run now, its run
 * followed to its output, disabled, rescheduled and deleted.
 */
describe("the dashboard's tasks", { skip: chromiumMissing ?? false }, () => {
  let server: DashboardServer;
  let browser: OpenBrowser;
  let page: Page;

  useDashboard((dashboard) => ({ server, browser, page } = dashboard));

  it('creates a task through the form, runs it now and shows the run with its output', async () => {
    const agent = await createAgent(server, { name: 'Herald' });
    await signIn(page, server);
    await page.goto(`${server.url}/#/agents/${agent.id}/tasks`);
    await page.getByRole('status').filter({ hasText: 'No tasks yet' }).waitFor();
    await assertAccessible(page, 'tasks, empty');

    // Escape closes the form unchanged and gives focus back to the button that opened it.
    await page.getByRole('button', { name: 'New task' }).click();
    const dialog = page.getByRole('dialog', { name: 'New task' });
    await dialog.waitFor();
    assert.equal(await focusedLabel(page), 'Name', 'focus moves into the dialog');
    await page.keyboard.press('Escape');
    // Gone from the page, not only closed: the form leaves on the dialog's close event, a task after the key,
    // and a New task pressed before that finds the form still open in the page's state, and opens nothing.
    await page.locator('dialog.task-dialog').waitFor({ state: 'detached' });
    assert.equal(await focusedLabel(page), 'New task');
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await dialog.getByLabel('Name').fill('Morning summary');
    await dialog.getByLabel('Instructions').fill('Summarise the night');
    await dialog.getByLabel('Every so often').check();
    await dialog.getByLabel('Every', { exact: true }).fill('0.5');
    await dialog.getByLabel('Unit').selectOption('minutes');
    await assertAccessible(page, 'task form');
    await dialog.getByRole('button', { name: 'Create task' }).click();

    // 30 s is below the minimum: the server's problem shows at the interval, and nothing is stored.
    const every = dialog.getByLabel('Every', { exact: true });
    await page.waitForFunction(
      () => (globalThis as any).document.activeElement?.getAttribute('aria-invalid') === 'true',
    );
    assert.equal(await every.getAttribute('aria-invalid'), 'true');
    assert.match(await dialog.locator('.field-error').innerText(), /60/);
    assert.equal((await server.api('GET', `/v1/agents/${agent.id}/tasks`)).body.data.length, 0);
    await assertAccessible(page, 'task form with an error');

    await every.fill('10');
    await dialog.getByRole('button', { name: 'Create task' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByRole('row', { name: /Morning summary/ });
    await row.waitFor();
    assert.match(await row.innerText(), /every 10 minutes/);
    const [stored] = (await server.api('GET', `/v1/agents/${agent.id}/tasks`)).body.data;
    assert.deepEqual(stored.schedule, { everySeconds: 600 });
    assert.equal(stored.instructions, 'Summarise the night');
    assert.ok(stored.nextDueAt, 'it has a next due time');

    await row.getByRole('button', { name: 'Run now: Morning summary' }).click();
    const detail = page.locator('.run-detail');
    await detail.locator('.run-status', { hasText: 'completed' }).waitFor();
    assert.match(await detail.locator('.run-reply').innerText(), /Summarise the night/);
    const runsTable = page.getByRole('table', { name: 'Runs of Morning summary, newest first' });
    await runsTable.getByRole('cell', { name: 'completed' }).waitFor();
    assert.match(await runsTable.innerText(), /task \(run now\)/);
    const runs = (await server.api('GET', `/v1/agents/${agent.id}/runs?task=${stored.id}`)).body.data;
    assert.equal(runs.length, 1);
    assert.equal(runs[0].status, 'completed');
    await detail.getByText(/^Events \(\d+\)$/).click();
    await detail.getByText('message.completed').waitFor();
    await assertAccessible(page, 'tasks with a run');
    await screenshot(page, 'tasks', { documented: true });

    // The box shows the stored state: it changes once the server has answered, not at the click itself
    // (hence a click and a wait rather than `uncheck()`, which checks the state right after the click).
    await row.getByLabel('Morning summary enabled').click();
    await page.getByRole('status').filter({ hasText: 'Morning summary disabled.' }).waitFor();
    // The notice comes with the server's answer; the box follows once the list is read again.
    await row.locator('input[aria-label="Morning summary enabled"]:not(:checked)').waitFor();
    assert.equal(await row.getByLabel('Morning summary enabled').isChecked(), false);
    assert.equal((await server.api('GET', `/v1/agents/${agent.id}/tasks/${stored.id}`)).body.enabled, false);

    await row.getByRole('button', { name: 'Edit Morning summary' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Morning summary' });
    await edit.getByLabel('On a cron schedule').check();
    await edit.getByLabel('Cron expression').fill('30 7 * * 1-5');
    await edit.getByLabel('Time zone').fill('Europe/Berlin');
    await edit.getByRole('button', { name: 'Save task' }).click();
    await edit.waitFor({ state: 'detached' });
    await row.getByRole('cell', { name: 'cron 30 7 * * 1-5 (Europe/Berlin)' }).waitFor();
    assert.deepEqual((await server.api('GET', `/v1/agents/${agent.id}/tasks/${stored.id}`)).body.schedule, {
      cron: '30 7 * * 1-5',
      timezone: 'Europe/Berlin',
    });

    await row.getByRole('button', { name: 'Delete Morning summary' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Morning summary?' });
    await confirm.getByRole('button', { name: 'Delete task' }).click();
    await page.getByRole('status').filter({ hasText: 'No tasks yet' }).waitFor();
    assert.equal((await server.api('GET', `/v1/agents/${agent.id}/tasks/${stored.id}`)).status, 404);
    assertNoConsoleErrors(browser.consoleErrors);
  });
});
