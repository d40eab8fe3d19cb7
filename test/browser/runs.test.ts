import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissing, type OpenBrowser } from '../helpers/browser.js';
import { startLoopbackHttpServer, type LoopbackHttpServer } from '../helpers/loopback-http-server.js';

import { assertAccessible } from './accessibility.js';
import {
  assertNoConsoleErrors,
  createAgent,
  knowledgeBaseWithDocument,
  signIn,
  type DashboardServer,
  useDashboard,
} from './dashboard-helpers.js';

const runRow = (page: Page, input: RegExp) =>
  page.getByRole('row').filter({ has: page.getByRole('link', { name: input }) });

/**
 * The Runs view and a run's page as a user works them: the account's runs
 * filtered by trigger, a run's timeline with its model and tool steps, the
 * prompt a model step was sent, and a slow background run cancelled.
 */
describe("the dashboard's runs", { skip: chromiumMissing ?? false }, () => {
  let server: DashboardServer;
  let browser: OpenBrowser;
  let page: Page;
  // A server that never answers: a run whose tool fetches from it goes on until it is cancelled (or the fetch's
  // 30 s bound), long enough to be cancelled from its page.
  let silent: LoopbackHttpServer;

  before(async () => {
    silent = await startLoopbackHttpServer(() => {});
  });
  after(async () => silent?.close());
  useDashboard((dashboard) => ({ server, browser, page } = dashboard), {
    environment: { AGENTD_OUTBOUND_ALLOW_PRIVATE: 'true' },
  });

  it('lists runs by trigger and shows a run’s steps and the prompt of its model step', async () => {
    // A knowledge base the message finds something in: its hit is a section of the prompt.
    const base = await knowledgeBaseWithDocument(server, 'Harbor notes', {
      title: 'Fuel dock',
      content: 'The fuel dock sells diesel only and closes at six.',
    });
    const agent = await createAgent(server, {
      name: 'Reckoner',
      plugins: [{ name: 'math' }],
      knowledgeBases: [base.id],
    });
    const sent = await server.api('POST', `/v1/agents/${agent.id}/messages`, {
      text: '/tool calculate {"expression":"6*7"}\nAnd when does the fuel dock close?',
      userId: 'kim',
    });
    assert.equal(sent.body.citations.length, 1, 'the message found the document');
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.match(sent.body.text, /42/);
    const task = await server.api('POST', `/v1/agents/${agent.id}/tasks`, {
      name: 'Nightly count',
      instructions: 'Count the sheep',
      schedule: { everySeconds: 3600 },
    });
    assert.equal(task.status, 201, JSON.stringify(task.body));
    assert.equal((await server.api('POST', `/v1/agents/${agent.id}/tasks/${task.body.id}/run`)).status, 202);

    await signIn(page, server);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs', exact: true }).click();
    await page.getByRole('heading', { name: 'Runs', level: 1 }).waitFor();
    const messageRow = runRow(page, /6\*7/);
    const taskRow = runRow(page, /Count the sheep/);
    await messageRow.waitFor();
    await taskRow.waitFor();
    assert.match(await messageRow.innerText(), /message/);
    assert.match(await messageRow.innerText(), /Reckoner/);
    assert.match(await messageRow.innerText(), /completed/);
    assert.match(await messageRow.innerText(), /v1/);
    await assertAccessible(page, 'runs');

    // The trigger filter asks the server for those runs only.
    await page.getByLabel('Trigger').selectOption('task');
    await messageRow.waitFor({ state: 'detached' });
    await taskRow.waitFor();
    await page.getByLabel('Trigger').selectOption('message');
    await taskRow.waitFor({ state: 'detached' });
    await messageRow.waitFor();
    await page.getByLabel('Status').selectOption('failed');
    await page.getByRole('status').filter({ hasText: 'No runs match these filters.' }).waitFor();
    await page.getByLabel('Status').selectOption('');
    await messageRow.waitFor();

    await messageRow.getByRole('link').click();
    const heading = page.getByRole('heading', { name: /^Run run_/, level: 1 });
    await heading.waitFor();
    assert.match(await heading.innerText(), /completed/);
    assert.match(await page.locator('.run-reply').innerText(), /42/);
    const timeline = page.locator('ol.run-timeline');
    const modelStep = timeline.getByRole('button', { name: /Model step 1: builtin\// });
    const toolStep = timeline.getByRole('button', { name: /Tool calculate/ });
    await modelStep.waitFor();
    await toolStep.waitFor();
    assert.match(await modelStep.innerText(), /tool-calls/);
    assert.match(await modelStep.innerText(), /\d+ in \/ \d+ out \/ \d+ cached tokens/);

    await toolStep.click();
    const toolDetail = page.locator('.tool-detail');
    assert.match(await toolDetail.locator('.step-json').first().innerText(), /"expression": "6\*7"/);
    assert.match(await toolDetail.locator('.step-json').nth(1).innerText(), /42/);

    await modelStep.click();
    const inspector = page.getByRole('region', { name: 'Prompt of model step 1' });
    const userMessage = inspector.locator('.prompt-message.prompt-user').last();
    await userMessage.waitFor();
    assert.match(await userMessage.innerText(), /\/tool calculate \{"expression":"6\*7"\}/);
    assert.match(await userMessage.innerText(), /closes at six/, 'the knowledge hit, as the notes of the message');
    // The user's message is a section of its own, drawn as a bar against the model's context window.
    await inspector.getByRole('heading', { name: /builtin\/.*: [\d,.]+ tokens of context/ }).waitFor();
    const messageSection = inspector
      .locator('.prompt-section')
      .filter({ hasText: /message/i })
      .first();
    assert.match(await messageSection.innerText(), /: [1-9][\d,.]* tokens \(1 item\) · [\d.]+ %/);
    const barWidth = await messageSection
      .locator('.section-bar')
      .evaluate(
        (bar) => (bar as unknown as { getBoundingClientRect(): { width: number } }).getBoundingClientRect().width,
      );
    assert.ok(barWidth > 0, 'the section has a bar');
    const knowledgeSection = inspector.locator('.prompt-section').filter({ hasText: /^Knowledge:/ });
    assert.match(await knowledgeSection.innerText(), /^Knowledge: [1-9][\d,.]* tokens \(1 item\)/);
    assert.match(await inspector.locator('.prompt-total').innerText(), /^Total: [\d,.]+ tokens/);
    assert.match(await inspector.locator('.prompt-tools').innerText(), /calculate/);
    await assertAccessible(page, 'run page with the prompt inspector');

    // The agent's own Runs tab lists the same runs, without an agent column.
    await page.goto(`${server.url}/#/agents/${agent.id}/runs`);
    await runRow(page, /6\*7/).waitFor();
    assert.equal(await page.getByRole('columnheader', { name: 'Agent' }).count(), 0);
    assertNoConsoleErrors(browser.consoleErrors);
  });

  it('cancels a slow background run from its page', async () => {
    const agent = await createAgent(server, {
      name: 'Dawdler',
      plugins: [{ name: 'http', config: { timeoutMs: 30_000 } }],
    });
    const started = await server.api('POST', `/v1/agents/${agent.id}/messages`, {
      text: `/tool fetch_url {"url":"${silent.origin}/never"}`,
      background: true,
    });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const runId: string = started.body.id;
    await signIn(page, server);
    await page.goto(`${server.url}/#/agents/${agent.id}/runs/${runId}`);
    const heading = page.getByRole('heading', { name: `Run ${runId}`, level: 1 });
    await heading.locator('.run-status', { hasText: 'running' }).waitFor();
    await assertAccessible(page, 'a running run');

    await page.getByRole('button', { name: 'Cancel run' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this run?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Stop the run' }).click();
    await heading.locator('.run-status', { hasText: 'cancelled' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Cancel run' }).count(), 0, 'no Cancel once it has ended');
    const stored = await server.api('GET', `/v1/agents/${agent.id}/runs/${runId}`);
    assert.equal(stored.body.status, 'cancelled');
    assert.equal(stored.body.reply?.finishReason, 'aborted');
    assert.match(await page.locator('.run-outcome').innerText(), /aborted/);
    assertNoConsoleErrors(browser.consoleErrors);
  });
});
