import assert from 'node:assert/strict';
import { text } from 'node:stream/consumers';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissing, screenshot, type OpenBrowser } from '../helpers/browser.js';
import { startLoopbackHttpServer, type LoopbackHttpServer } from '../helpers/loopback-http-server.js';

import { assertAccessible } from './accessibility.js';
import { assertNoConsoleErrors, createAgent, signIn, type DashboardServer, useDashboard } from './dashboard-helpers.js';

/**
 * An agent's Evals tab as a user works it: a dataset written as JSONL (a bad
 * line named by its number, by this page and by the server), exported and
 * another imported from a file; an eval of two versions started, followed to
 * its end, and its results read: totals side by side, the case the versions
 * answer differently first and marked. The builtin model quotes the agent's
 * bio, so a PATCH of the bio makes a version that answers differently.
 * (Restoring a version from the dashboard is test/browser/versions.test.ts.)
 */
describe("the dashboard's agent evals", { skip: chromiumMissing ?? false }, () => {
  let server: DashboardServer;
  let browser: OpenBrowser;
  let page: Page;

  // A server that never answers: a case whose tool reads from it goes on until its eval is cancelled.
  let silent: LoopbackHttpServer;

  before(async () => {
    silent = await startLoopbackHttpServer(() => {});
  });
  after(async () => silent?.close());
  useDashboard((dashboard) => ({ server, browser, page } = dashboard), {
    environment: { AGENTD_OUTBOUND_ALLOW_PRIVATE: 'true' },
  });

  // The differing case comes second in the dataset: listed first in the results, it is the API's order at work.
  const cases = [
    { id: 'greeting', messages: ['Hello!'], expect: [{ type: 'finishReason', value: 'stop' }] },
    {
      id: 'edition',
      messages: ['Which edition are you?'],
      expect: [{ type: 'contains', value: 'second edition' }, { type: 'noToolCalled' }],
    },
  ];
  const jsonl = cases.map((each) => `${JSON.stringify(each)}\n`).join('');

  const casesField = () => page.getByLabel('Cases (JSONL)');

  it('writes, exports and imports datasets, runs an eval of two versions and reads its results', async () => {
    const agent = await createAgent(server, { name: 'Evander', bio: ['The first edition.'] });
    const patched = await server.api('PATCH', `/v1/agents/${agent.id}`, { bio: ['The second edition.'] });
    assert.equal(patched.body.version, 2);
    await signIn(page, server);
    await page.goto(`${server.url}/#/agents/${agent.id}/evals`);
    await page.getByRole('heading', { name: 'Evals', level: 2 }).waitFor();
    await page.getByText('No datasets yet').waitFor();
    await page.getByText('Create a dataset first').waitFor();

    // A line that is not JSON is named by its number, and nothing is sent.
    await page.getByRole('button', { name: 'New dataset' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Editions');
    await casesField().fill(`${JSON.stringify(cases[0])}\n{"id": "broken",\n`);
    await page.getByRole('button', { name: 'Create dataset' }).click();
    await page.getByRole('alert').filter({ hasText: 'The cases have a problem, listed below.' }).waitFor();
    const problems = page.locator('#dataset-cases-problems');
    assert.match(await problems.innerText(), /^Line 2: not valid JSON/);
    assert.equal(await casesField().getAttribute('aria-invalid'), 'true');
    assert.equal(await page.evaluate(() => (globalThis as any).document.activeElement?.id), 'dataset-cases');
    // A line the server refuses: its pointer becomes the line, the case and the scorer.
    await casesField().fill(
      `${JSON.stringify(cases[0])}\n\n${JSON.stringify({ id: 'slow', messages: ['a'], expect: [{ type: 'regex', pattern: '(a+)+$' }] })}\n`,
    );
    await page.getByRole('button', { name: 'Create dataset' }).click();
    await problems.getByText('Line 3 (case "slow"), scorer 1 (regex), pattern: may not quantify a group').waitFor();
    await assertAccessible(page, 'evals dataset refused');
    assert.equal((await server.api('GET', '/v1/eval-datasets')).body.data.length, 0);

    await casesField().fill(jsonl);
    await page.getByRole('button', { name: 'Create dataset' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved Editions with 2 cases.' }).waitFor();
    const row = page.getByRole('row', { name: /^Editions/ });
    assert.match(await row.innerText(), /\b2\b/);

    // Export: the file holds the cases as they were written, one per line.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: 'Export Editions' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'Editions.jsonl');
    assert.equal(await text(await download.createReadStream()), jsonl);
    await page.getByRole('status').filter({ hasText: 'Downloaded Editions.jsonl (2 cases).' }).waitFor();

    // Import: a file fills the cases, saved as a dataset of its own.
    await page.getByRole('button', { name: 'New dataset' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Imported');
    const imported = { id: 'imported', messages: ['Hi'], expect: [] };
    await page.getByLabel('Import a JSONL file').setInputFiles({
      name: 'imported.jsonl',
      mimeType: 'application/jsonl',
      buffer: Buffer.from(`${JSON.stringify(imported)}\n`),
    });
    await page.getByRole('status').filter({ hasText: 'Read 1 case from imported.jsonl' }).waitFor();
    assert.equal(await casesField().inputValue(), `${JSON.stringify(imported)}\n`);
    await page.getByRole('button', { name: 'Create dataset' }).click();
    await page.getByRole('row', { name: /^Imported/ }).waitFor();
    const stored = (await server.api('GET', '/v1/eval-datasets')).body.data as any[];
    assert.deepEqual(
      stored.map((each) => [each.name, each.caseCount]),
      [
        ['Imported', 1],
        ['Editions', 2],
      ],
    );
    const importedDataset = (await server.api('GET', `/v1/eval-datasets/${stored[0].id}`)).body;
    assert.deepEqual(importedDataset.cases, [imported]);
    await assertAccessible(page, 'evals datasets');

    // Edit: the stored cases come back as JSONL; a description is added. Delete: after a confirmation.
    await page.getByRole('button', { name: 'Edit Imported' }).click();
    await page.getByRole('heading', { name: 'Edit Imported' }).waitFor();
    assert.equal(await casesField().inputValue(), `${JSON.stringify(imported)}\n`);
    await page.getByLabel('Description').fill('Read from a file');
    await page.getByRole('button', { name: 'Save dataset' }).click();
    await page
      .getByRole('row', { name: /^Imported/ })
      .getByText('Read from a file')
      .waitFor();
    await page.getByRole('button', { name: 'Delete Imported' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Imported?' });
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Deleted Imported.' }).waitFor();
    await page.getByRole('row', { name: /^Imported/ }).waitFor({ state: 'detached' });

    // An eval of version 1 against version 2, followed until it completes.
    await page.getByLabel('Dataset', { exact: true }).selectOption({ label: 'Editions (2 cases)' });
    await page.getByLabel('Version', { exact: true }).selectOption('1');
    await page.getByLabel('Compare with').selectOption('2');
    await page.getByRole('button', { name: 'Start eval' }).click();
    const evalRow = page.getByRole('row', { name: /^Editions/ }).filter({ hasText: 'v1 and v2' });
    await evalRow.filter({ hasText: 'completed' }).waitFor({ timeout: 30_000 });
    assert.match(await evalRow.innerText(), /v1 1\/2 · v2 2\/2/);
    assert.match(await evalRow.innerText(), /1 differing/);
    await assertAccessible(page, 'evals list');

    await evalRow.getByRole('link').click();
    await page.getByRole('heading', { name: 'Eval of Editions', level: 2 }).waitFor();
    assert.match(page.url(), new RegExp(`#/agents/${agent.id}/evals/evl_`));
    // Totals side by side: one column per version.
    const totals = page.locator('table.eval-totals');
    assert.deepEqual(await totals.locator('thead th').allInnerTexts(), ['Scorer', 'v1', 'v2']);
    assert.deepEqual(
      await totals
        .getByRole('row', { name: /^contains/ })
        .locator('td')
        .allInnerTexts(),
      ['0.00 (0/1 passed)', '1.00 (1/1 passed)'],
    );
    assert.deepEqual(
      await totals
        .getByRole('row', { name: /^Cases passed/ })
        .locator('td')
        .allInnerTexts(),
      ['1 of 2', '2 of 2'],
    );
    // The case the versions answer differently first, marked in words; each version's reply and scores.
    const listed = page.locator('.eval-cases > li');
    assert.equal(await listed.count(), 2);
    const first = listed.nth(0);
    assert.equal(await first.getByRole('heading', { level: 4 }).innerText(), 'edition Differs');
    const before = first.getByRole('region', { name: 'edition, v1' });
    const after = first.getByRole('region', { name: 'edition, v2' });
    assert.match(await before.innerText(), /✗ failed/);
    assert.match(await before.locator('.case-reply').innerText(), /The first edition\./);
    assert.match(await before.locator('.score-fail').first().innerText(), /contains 0\.00/);
    assert.match(await after.innerText(), /✓ passed/);
    assert.match(await after.locator('.case-reply').innerText(), /The second edition\./);
    assert.match(await after.innerText(), /Finish\s+stop/);
    assert.match(await after.innerText(), /Tokens\s+\d+ \(\d+ in, \d+ out\)/);
    assert.equal(await listed.nth(1).getByRole('heading', { level: 4 }).innerText(), 'greeting');
    await assertAccessible(page, 'eval results');
    await screenshot(page, 'evals');

    // A run of the eval opens from its results.
    await after.getByRole('link', { name: /^run 1/ }).click();
    await page.waitForURL(new RegExp(`#/agents/${agent.id}/runs/run_`));
    await page.goBack();
    await page.getByRole('link', { name: 'Back to evals' }).click();
    await page.getByRole('heading', { name: 'Evals', level: 2 }).waitFor();
    assertNoConsoleErrors(browser.consoleErrors);
  });

  it('follows a running eval in the list and cancels it', async () => {
    const agent = await createAgent(server, {
      name: 'Dawdler',
      plugins: [{ name: 'http', config: { timeoutMs: 30_000 } }],
    });
    const dataset = await server.api('POST', '/v1/eval-datasets', {
      name: 'Slow reads',
      cases: [{ id: 'hangs', messages: [`/tool fetch_url {"url":"${silent.origin}/never"}`], expect: [] }],
    });
    assert.equal(dataset.status, 201, JSON.stringify(dataset.body));
    await signIn(page, server);
    await page.goto(`${server.url}/#/agents/${agent.id}/evals`);
    await page.getByRole('button', { name: 'Start eval' }).click();
    // The list reads the eval again while it goes on: queued, then running, with nothing done yet.
    const evalRow = page.getByRole('row', { name: /^Slow reads/ }).filter({ hasText: 'v1' });
    await evalRow.filter({ hasText: 'running' }).waitFor();
    assert.equal(await evalRow.getByRole('progressbar', { name: '0 of 1 results' }).count(), 1);
    await assertAccessible(page, 'a running eval');

    await evalRow.getByRole('button', { name: 'Cancel the eval of Slow reads' }).click();
    await evalRow.filter({ hasText: 'cancelled' }).waitFor();
    assert.equal(await evalRow.getByRole('button').count(), 0, 'no Cancel once it has ended');
    const evals = (await server.api('GET', `/v1/agents/${agent.id}/evals`)).body.data as any[];
    assert.deepEqual(
      evals.map((each) => each.status),
      ['cancelled'],
    );
    await evalRow.getByRole('link').click();
    await page.getByRole('heading', { name: 'Eval of Slow reads', level: 2 }).waitFor();
    await page.getByText('No case has a result yet.').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Cancel eval' }).count(), 0);
    assertNoConsoleErrors(browser.consoleErrors);
  });
});
