import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissing, screenshot, type OpenBrowser } from '../helpers/browser.js';
import { startFakeWebhookReceiver, type FakeWebhookReceiver } from '../helpers/fake-webhook-receiver.js';
import { assertNoConsoleErrors, createAgent, signIn, type DashboardServer, useDashboard } from './dashboard-helpers.js';

const phone = { width: 390, height: 844 };

/** What sticks out of the page sideways: the page's own width, and each visible button not wholly on screen. */
async function overflowOf(page: Page) {
  return page.evaluate((width) => {
    const document = (globalThis as any).document;
    const offScreen = [...document.querySelectorAll('button, .button')]
      .filter((button: any) => button.getClientRects().length > 0)
      .map((button: any) => ({ text: button.textContent.trim(), rect: button.getBoundingClientRect() }))
      .filter(({ rect }: any) => rect.left < 0 || rect.right > width + 0.5)
      .map(({ text, rect }: any) => `${text} (${Math.round(rect.left)}–${Math.round(rect.right)})`);
    return { scrollWidth: document.scrollingElement.scrollWidth as number, offScreen: offScreen as string[] };
  }, phone.width);
}

/**
 * Every view of the dashboard on a 390 px wide phone, each with rows in its
 * tables: nothing is wider than the screen, so nothing scrolls sideways, and
 * every button can be reached without doing so.
 */
describe('the dashboard on a phone', { skip: chromiumMissing ?? false }, () => {
  let server: DashboardServer;
  let browser: OpenBrowser;
  let page: Page;
  let receiver: FakeWebhookReceiver;

  before(async () => {
    receiver = await startFakeWebhookReceiver();
  });
  after(async () => receiver?.close());
  useDashboard((dashboard) => ({ server, browser, page } = dashboard), {
    viewport: phone,
    // Metrics are written every 100 ms, so the Usage view has the messages sent just before it.
    environment: {
      AGENTD_OUTBOUND_ALLOW_PRIVATE: 'true',
      AGENTD_WEBHOOK_POLL_MS: '100',
      AGENTD_METRICS_FLUSH_MS: '100',
    },
  });

  it('no view is wider than 390 px and every button is on screen', async () => {
    const ok = (response: { status: number; body: unknown }, status = 200) =>
      assert.equal(response.status, status, JSON.stringify(response.body));
    const base = (await server.api('POST', '/v1/knowledge-bases', { name: 'Harbour regulations and tide tables' }))
      .body;
    ok(
      await server.api('POST', `/v1/knowledge-bases/${base.id}/documents`, {
        title: 'Mooring rules for the inner harbour, revised edition',
        content: 'Boats moor bow first. Fees are paid at the harbour office before nine in the morning.',
      }),
      202,
    );
    const agent = await createAgent(server, {
      name: 'Harbour master of the northern pier',
      knowledgeBases: [base.id],
      plugins: [{ name: 'math', approval: { tools: ['calculate'] } }],
      platforms: [{ type: 'webhook', secrets: { signingSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' } }],
    });
    ok(await server.api('POST', `/v1/agents/${agent.id}/messages`, { text: 'Hello there', userId: 'kim' }));
    const asked = await server.api('POST', `/v1/agents/${agent.id}/messages`, {
      text: '/tool calculate {"expression":"6*7"}',
      userId: 'kim',
      roomId: 'pier-office',
    });
    ok(asked);
    ok(
      await server.api('PATCH', `/v1/agents/${agent.id}/memory?userId=kim`, {
        summary: 'Kim asked about moorings.',
        facts: [{ subject: 'location', statement: 'lives in Porto, near the fish market by the river' }],
      }),
    );
    ok(
      await server.api('POST', `/v1/agents/${agent.id}/tasks`, {
        name: 'Morning tide summary',
        instructions: 'Summarise the tides of the day',
        schedule: { everySeconds: 3600 },
      }),
      201,
    );
    const hook = await server.api('POST', '/v1/webhooks', {
      url: `${receiver.url}/agentd/events/with/a/rather/long/path`,
      events: ['agent.created', 'agent.updated'],
    });
    ok(hook, 201);
    ok(await server.api('POST', '/v1/api-keys', { name: 'Deploy bot for the harbour', scopes: ['agents:read'] }), 201);
    // An update, so the webhook has a delivery to list.
    ok(await server.api('PATCH', `/v1/agents/${agent.id}`, { bio: 'Keeps the pier in order.' }));
    // An eval of the two versions (before and after the update), with a dataset of long names.
    const dataset = await server.api('POST', '/v1/eval-datasets', {
      name: 'Harbour questions for the master of the northern pier',
      cases: [
        {
          id: 'moorings-and-fees-at-the-inner-harbour-before-nine',
          messages: ['Where do boats moor, and when are the fees paid?'],
          expect: [
            { type: 'contains', value: 'Keeps the pier in order' },
            { type: 'regex', pattern: 'harbour office before nine', flags: 'i' },
          ],
        },
      ],
    });
    ok(dataset, 201);
    const evaluation = await server.api('POST', `/v1/agents/${agent.id}/evals`, {
      datasetId: dataset.body.id,
      versions: [1, 2],
    });
    ok(evaluation, 202);

    await signIn(page, server);
    const agentTab = (tab: string) => `#/agents/${agent.id}/${tab}`;
    const views: Array<[string, string, () => Promise<unknown>]> = [
      ['agents', '#/', () => page.getByRole('link', { name: agent.name }).first().waitFor()],
      ['new agent', '#/new', () => page.getByRole('button', { name: 'Create agent' }).waitFor()],
      ['chat', agentTab('chat'), () => page.getByRole('button', { name: /^Send/ }).waitFor()],
      ['history', agentTab('history'), () => page.locator('.history .turn').first().waitFor()],
      ['memory', agentTab('memory'), () => page.getByRole('row', { name: /location/ }).waitFor()],
      ['tasks', agentTab('tasks'), () => page.getByRole('row', { name: /Morning tide summary/ }).waitFor()],
      ['platforms', agentTab('platforms'), () => page.getByRole('row', { name: /^webhook/ }).waitFor()],
      ['metrics', agentTab('metrics'), () => page.locator('.totals dd').first().waitFor()],
      ['connect', agentTab('connect'), () => page.locator('code').nth(1).waitFor()],
      ['edit', agentTab('edit'), () => page.getByRole('button', { name: 'Save changes' }).waitFor()],
      ['versions', agentTab('versions'), () => page.locator('table.versions tbody tr').nth(1).waitFor()],
      ['agent runs', agentTab('runs'), () => page.locator('table.runs-list tbody tr').nth(1).waitFor()],
      ['evals', agentTab('evals'), () => page.locator('table.evals-table tbody tr').first().waitFor()],
      [
        'eval results',
        `#/agents/${agent.id}/evals/${evaluation.body.id}`,
        () => page.locator('.eval-facts').getByText('completed').waitFor(),
      ],
      [
        'run with its prompt',
        `#/agents/${agent.id}/runs/${asked.body.runId}`,
        async () => {
          await page.locator('.run-timeline button.step-head').first().click();
          await page.locator('.prompt-message').first().waitFor();
        },
      ],
      ['knowledge', '#/knowledge', () => page.getByRole('row', { name: /Harbour regulations/ }).waitFor()],
      ['knowledge base', `#/knowledge/${base.id}`, () => page.getByRole('row', { name: /Mooring rules/ }).waitFor()],
      ['webhooks', '#/webhooks', () => page.getByRole('row', { name: /agentd\/events/ }).waitFor()],
      ['webhook', `#/webhooks/${hook.body.id}`, () => page.locator('.delivery').first().waitFor()],
      ['keys', '#/keys', () => page.getByRole('row', { name: /Deploy bot/ }).waitFor()],
      ['runs', '#/runs', () => page.locator('table.runs-list tbody tr').nth(1).waitFor()],
      ['events', '#/events', () => page.locator('table.events tbody tr').first().waitFor()],
      ['usage', '#/usage', () => page.locator('table.usage tbody tr').first().waitFor()],
      ['approvals', '#/approvals', () => page.getByRole('listitem').filter({ hasText: '6*7' }).first().waitFor()],
      ['characters', '#/characters', () => page.getByRole('heading', { name: 'Characters', level: 1 }).waitFor()],
    ];
    const problems: string[] = [];
    for (const [name, hash, shown] of views) {
      await page.goto(`${server.url}/${hash}`);
      await shown();
      const { scrollWidth, offScreen } = await overflowOf(page);
      if (scrollWidth > phone.width) problems.push(`${name}: ${scrollWidth} px wide`);
      if (offScreen.length > 0) problems.push(`${name}: buttons off screen: ${offScreen.join(', ')}`);
      if (scrollWidth > phone.width || offScreen.length > 0)
        await screenshot(page, `narrow-${name.replace(/ /g, '-')}`);
    }
    assert.deepEqual(problems, []);
    assertNoConsoleErrors(browser.consoleErrors);
  });
});
