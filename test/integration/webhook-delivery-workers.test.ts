import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { createDependencies, type AppDeps } from '../../src/dependencies.js';
import type { App } from '../../src/http/app-instance.js';
import { createLogger } from '../../src/logger.js';
import { postgresSkip } from '../helpers/environment.js';
import { recordSecrets } from '../helpers/known-secrets.js';
import { startFakeWebhookReceiver, type FakeWebhookReceiver } from '../helpers/fake-webhook-receiver.js';
import { suiteLogger } from '../helpers/suite-log.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/wait.js';

/**
 * AGENTD_WEBHOOK_DELIVERY=off: an instance that serves the API writes each
 * event to the outbox with its change and sends nothing; another instance on
 * the same database, with delivery on, delivers it.
 */
describe('webhook delivery left to another instance', { skip: postgresSkip }, () => {
  let receiver: FakeWebhookReceiver;
  let writer: TestApp;
  let deliveryDeps: AppDeps | undefined;
  let delivery: App | undefined;

  before(async () => {
    receiver = await startFakeWebhookReceiver();
    writer = await createTestApp({
      backend: 'postgres',
      env: { AGENTD_OUTBOUND_ALLOW_PRIVATE: 'true', AGENTD_WEBHOOK_DELIVERY: 'off', AGENTD_WEBHOOK_POLL_MS: '50' },
    });
  });
  after(async () => {
    await delivery?.close();
    await deliveryDeps?.close();
    await writer?.close();
    await receiver?.close();
  });

  it('writes the delivery with the change, and the instance with delivery on sends it', async () => {
    const subscribed = await writer.inject({
      method: 'POST',
      url: '/v1/webhooks',
      payload: { url: receiver.url, events: ['agent.created'] },
    });
    assert.equal(subscribed.statusCode, 201, subscribed.body);
    const webhook = subscribed.json();
    recordSecrets(webhook.secret);
    const agent = await writer.newAgent({ name: 'Announced' });

    const log = await writer.inject({ method: 'GET', url: `/v1/webhooks/${webhook.id}/deliveries` });
    const [pending] = log.json().data;
    assert.equal(pending.eventType, 'agent.created');
    assert.equal(pending.state, 'pending');
    assert.equal(pending.attempts, 0, 'the writing instance made no attempt');

    const config = { ...writer.config, webhooks: { ...writer.config.webhooks, deliver: true } };
    deliveryDeps = await createDependencies(config, {
      logger: suiteLogger() ?? createLogger('silent'),
      database: { searchPath: writer.deps.database.schema! },
    });
    delivery = await buildApp({ config, deps: deliveryDeps });
    const [request] = await eventually(
      async () => (receiver.received.length > 0 ? receiver.received : null),
      'the delivery',
    );
    const payload = receiver.verify(request!, webhook.secret) as { type: string; data: { agentId: string } };
    assert.equal(payload.type, 'agent.created');
    assert.equal(payload.data.agentId, agent.id);
    const settled = await eventually(async () => {
      const response = await writer.inject({ method: 'GET', url: `/v1/webhooks/${webhook.id}/deliveries` });
      const [entry] = response.json().data;
      return entry.state === 'succeeded' ? entry : null;
    }, 'the delivery settled');
    assert.equal(settled.attempts, 1);
  });
});
