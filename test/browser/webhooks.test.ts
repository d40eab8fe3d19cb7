import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { chromiumMissing, screenshot, type OpenBrowser } from '../helpers/browser.js';
import { startFakeWebhookReceiver, type FakeWebhookReceiver } from '../helpers/fake-webhook-receiver.js';

import { assertAccessible } from './accessibility.js';
import { assertNoConsoleErrors, createAgent, signIn, type DashboardServer, useDashboard } from './dashboard-helpers.js';

/**
 * The Webhooks view against a real agentd process and a receiver on
 * loopback (allowed for the test with AGENTD_OUTBOUND_ALLOW_PRIVATE) that
 * refuses the first attempt: the user creates a webhook, sees the delivery an
 * event makes with both its attempts, sends it again, rotates the secret,
 * switches the webhook off and deletes it.
 */
describe('the Webhooks view', { skip: chromiumMissing ?? false }, () => {
  let server: DashboardServer;
  let browser: OpenBrowser;
  let receiver: FakeWebhookReceiver;
  let page: Page;

  useDashboard((dashboard) => ({ server, browser, page } = dashboard), {
    environment: {
      AGENTD_OUTBOUND_ALLOW_PRIVATE: 'true',
      // Retries within a fraction of a second rather than 5 s, so the second attempt comes while the test looks.
      AGENTD_WEBHOOK_RETRY_BASE_MS: '100',
      AGENTD_WEBHOOK_POLL_MS: '100',
    },
  });
  beforeEach(async () => {
    receiver = await startFakeWebhookReceiver((index) => (index === 0 ? 500 : 204));
  });
  afterEach(async () => {
    await receiver?.close();
  });

  it('creates a webhook, shows its deliveries with every attempt, redelivers, rotates, disables and deletes', async () => {
    await signIn(page, server);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByText('No webhooks yet.').waitFor();
    await assertAccessible(page, 'webhooks (empty)');

    // A form sent empty gets the server's errors at its fields.
    await page.getByRole('button', { name: 'New webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'New webhook' });
    await dialog.getByRole('checkbox', { name: 'agent.created' }).waitFor();
    await assertAccessible(page, 'new webhook form');
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    await dialog.getByRole('alert').waitFor();
    assert.equal(await dialog.getByLabel('URL').getAttribute('aria-invalid'), 'true');
    await assertAccessible(page, 'new webhook form with errors');

    await dialog.getByLabel('URL').fill(receiver.url);
    await dialog.getByLabel('Description (optional)').fill('Tells the ops channel');
    await dialog.getByRole('checkbox', { name: 'agent.created' }).check();
    await dialog.getByRole('button', { name: 'Create webhook' }).click();

    // The secret is shown once, with focus on it.
    const secretBox = page.getByRole('region', { name: 'Signing secret of the new webhook' });
    const secret = await secretBox.getByRole('textbox').inputValue();
    assert.match(secret, /^whsec_/);
    await assertAccessible(page, 'webhooks with the secret shown');
    await secretBox.getByRole('button', { name: 'I have saved it' }).click();
    await secretBox.waitFor({ state: 'detached' });

    await page.getByRole('link', { name: receiver.url }).click();
    await page.getByRole('heading', { name: 'Webhook', level: 1 }).waitFor();
    await page.getByText('No deliveries yet').waitFor();

    // An agent created makes an `agent.created` event: refused once (500), then taken (204).
    await createAgent(server, { name: 'Hooked' });
    await page.getByRole('button', { name: 'Refresh deliveries' }).click();
    const delivery = page.locator('li.delivery').first();
    await delivery.getByRole('table', { name: '2 attempts' }).waitFor({ timeout: 30_000 });
    await delivery.getByText('succeeded').waitFor();
    const attempts = await delivery.getByRole('row').allInnerTexts();
    assert.match(attempts[1]!, /^1\s+500\b/);
    assert.match(attempts[2]!, /^2\s+204\b/);
    // What the receiver got is signed with the secret the page showed.
    assert.equal(receiver.verify(receiver.received[1]!, secret).data.name, 'Hooked');
    await assertAccessible(page, 'webhook with deliveries');
    await screenshot(page, 'webhooks', { documented: true });

    // Sending again makes a new delivery of the same event, with an attempt of its own.
    await delivery.getByRole('button', { name: 'Redeliver' }).click();
    await page.getByText('agent.created queued again as a new delivery.').waitFor();
    await page.locator('li.delivery').nth(1).waitFor();
    await page.locator('li.delivery').first().getByRole('table', { name: '1 attempt' }).waitFor({ timeout: 30_000 });
    const eventId = String(receiver.received[1]!.headers['webhook-id']);
    assert.equal(receiver.deliveriesOf(eventId).length, 3);

    // A new secret, shown once; the old one no longer verifies what is sent.
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const rotateDialog = page.getByRole('dialog', { name: 'Replace the signing secret?' });
    await assertAccessible(page, 'rotate secret confirmation');
    await rotateDialog.getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = await page.getByRole('region', { name: 'New signing secret' }).getByRole('textbox').inputValue();
    assert.match(rotated, /^whsec_/);
    assert.notEqual(rotated, secret);

    await page.getByRole('button', { name: 'Disable', exact: true }).click();
    await page.getByText('Webhook disabled: nothing more is sent.').waitFor();
    const stored = await server.api('GET', '/v1/webhooks');
    assert.equal(stored.body.data[0].enabled, false);
    await page.getByRole('button', { name: 'Enable', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Delete webhook' }).click();
    await page
      .getByRole('dialog', { name: 'Delete this webhook?' })
      .getByRole('button', { name: 'Delete for good' })
      .click();
    await page.getByText('No webhooks yet.').waitFor();
    assert.equal((await server.api('GET', '/v1/webhooks')).body.data.length, 0);

    // Its old address now shows the server's problem, with the way back.
    await page.goBack();
    await page
      .getByRole('alert')
      .getByText(/not found/i)
      .waitFor();
    await page.getByRole('link', { name: 'All webhooks' }).waitFor();
    await assertAccessible(page, 'webhook not found');
    assertNoConsoleErrors(browser.consoleErrors);
  });
});
