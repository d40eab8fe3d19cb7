import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeProviderServer } from '../helpers/fake-provider-server.js';
import { recordSecrets } from '../helpers/known-secrets.js';
import { startFakeWebhookReceiver, type FakeWebhookReceiver } from '../helpers/fake-webhook-receiver.js';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually, waitFor } from '../helpers/wait.js';

/** Retries 10 ms, 60 ms, 240 ms… after failures (the schedule's unit), and short time-outs. */
const fastDelivery = {
  AGENTD_OUTBOUND_ALLOW_PRIVATE: 'true',
  AGENTD_WEBHOOK_RETRY_BASE_MS: '10',
  AGENTD_WEBHOOK_TIMEOUT_MS: '2000',
};

for (const backend of backends) {
  describe(`webhooks on ${backend.label}`, { skip: backend.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ backend: backend.name, env: fastDelivery, captureLogs: true });
    });
    after(async () => t?.close());

    async function subscribe(receiver: FakeWebhookReceiver, events: string[], as = t.owner) {
      const response = await t.inject({
        method: 'POST',
        url: '/v1/webhooks',
        payload: { url: receiver.url, events },
        as,
      });
      assert.equal(response.statusCode, 201, response.body);
      const created = response.json();
      recordSecrets(created.secret);
      return created as { id: string; secret: string };
    }

    async function deliveriesOf(webhookId: string, as = t.owner) {
      const response = await t.inject({ method: 'GET', url: `/v1/webhooks/${webhookId}/deliveries`, as });
      assert.equal(response.statusCode, 200, response.body);
      return response.json().data as any[];
    }

    it('signs each event so that the Standard Webhooks verifier accepts it, and shows the secret once', async () => {
      const receiver = await startFakeWebhookReceiver();
      try {
        const webhook = await subscribe(receiver, ['agent.created', 'agent.updated', 'message.completed']);
        assert.match(webhook.secret, /^whsec_[A-Za-z0-9+/=]{32}$/);
        const agent = await t.newAgent({ name: 'Signed' });
        await t.inject({
          method: 'PATCH',
          url: `/v1/agents/${agent.id}`,
          payload: {
            bio: 'Changed.',
            platforms: [{ type: 'slack', secrets: { botToken: 'xoxb-webhook-secret-5150' } }],
          },
        });
        const sent = await t.inject({
          method: 'POST',
          url: `/v1/agents/${agent.id}/messages`,
          payload: { text: 'hello', userId: 'u1' },
        });
        assert.equal(sent.statusCode, 200);
        await eventually(async () => (receiver.received.length >= 3 ? true : null), 'three deliveries');

        const payloads = receiver.received.map((request) => receiver.verify(request, webhook.secret));
        assert.deepEqual(
          payloads.map((payload) => payload.type),
          ['agent.created', 'agent.updated', 'message.completed'],
        );
        assert.equal(payloads[0].data.agentId, agent.id);
        assert.deepEqual(payloads[1].data.fields, ['bio', 'platforms']);
        assert.deepEqual(payloads[1].data.platforms, [
          { entry: 'slack', change: 'added', secretsChanged: ['botToken'] },
        ]);
        assert.equal(payloads[2].data.messageId, sent.json().id);
        assert.deepEqual(payloads[2].data.usage, sent.json().usage);
        for (const request of receiver.received) {
          assert.ok(!request.body.includes('xoxb-webhook-secret-5150'), 'no secret value in a payload');
          assert.ok(!request.body.includes('hello'), 'no message text in a payload');
        }
        // A tampered body or another secret fails the library's check.
        const first = receiver.received[0]!;
        assert.throws(() =>
          receiver.verify({ ...first, body: first.body.replace('Signed', 'Forged') }, webhook.secret),
        );
        const other = await subscribe(receiver, ['agent.deleted']);
        assert.throws(() => receiver.verify(first, other.secret));

        const read = await t.inject({ method: 'GET', url: `/v1/webhooks/${webhook.id}` });
        const list = await t.inject({ method: 'GET', url: '/v1/webhooks?limit=100' });
        const log = await t.inject({ method: 'GET', url: `/v1/webhooks/${webhook.id}/deliveries` });
        for (const response of [read, list, log]) {
          assert.equal(response.statusCode, 200);
          assert.ok(!response.body.includes(webhook.secret), 'the secret is not shown again');
          assert.ok(!response.body.includes('whsec_'));
        }
        assert.ok(!t.logs!.text().includes(webhook.secret), 'the secret is not logged');
        assert.equal(read.json().secret, undefined);
      } finally {
        await receiver.close();
      }
    });

    it('retries a receiver that fails three times, which then gets the event a fourth time, and logs each attempt', async () => {
      const receiver = await startFakeWebhookReceiver((index) => (index < 3 ? 500 : 200));
      try {
        const webhook = await subscribe(receiver, ['agent.created']);
        const agent = await t.newAgent({ name: 'Retried' });
        const [delivery] = await eventually(async () => {
          const log = await deliveriesOf(webhook.id);
          return log[0]?.state === 'succeeded' ? log : null;
        }, 'the delivery to succeed');
        assert.equal(receiver.received.length, 4);
        const ids = new Set(receiver.received.map((request) => request.headers['webhook-id']));
        assert.equal(ids.size, 1, 'every attempt carries the same webhook-id');
        for (const request of receiver.received) {
          assert.equal(receiver.verify(request, webhook.secret).data.agentId, agent.id);
        }
        assert.equal(delivery.attempts, 4);
        assert.deepEqual(
          delivery.attemptLog.map((attempt: any) => [attempt.attempt, attempt.statusCode, attempt.error]),
          [
            [1, 500, 'the receiver answered 500'],
            [2, 500, 'the receiver answered 500'],
            [3, 500, 'the receiver answered 500'],
            [4, 200, null],
          ],
        );
        assert.equal(delivery.lastAttempt.statusCode, 200);
        assert.ok(delivery.attemptLog.every((attempt: any) => Number.isInteger(attempt.durationMs)));
        assert.equal(delivery.nextAttemptAt, null);
      } finally {
        await receiver.close();
      }
    });

    it('sends nothing for a change that rolls back inside its transaction', async () => {
      const receiver = await startFakeWebhookReceiver();
      const { idempotency } = t.deps.services.repositories;
      const complete = idempotency.complete;
      try {
        const webhook = await subscribe(receiver, ['agent.created']);
        // The agent, its event and its outbox row are written; then the last write of the transaction fails.
        idempotency.complete = async () => {
          throw new Error('injected failure after the outbox write');
        };
        const failed = await t.inject({
          method: 'POST',
          url: '/v1/agents',
          headers: { 'idempotency-key': `rollback-${Date.now()}` },
          payload: { name: 'Rolled back' },
        });
        assert.equal(failed.statusCode, 500);
        idempotency.complete = complete;
        const kept = await t.newAgent({ name: 'Committed' });
        await eventually(async () => (receiver.received.length > 0 ? true : null), 'the committed change to arrive');
        // Whatever was due has been claimed by now: the committed event, which came later, has arrived.
        assert.equal((await waitFor(() => receiver.received.length > 1, 300)) === null, true);
        assert.deepEqual(
          receiver.received.map((request) => receiver.verify(request, webhook.secret).data.name),
          ['Committed'],
        );
        assert.equal(receiver.verify(receiver.received[0]!, webhook.secret).data.agentId, kept.id);
        assert.equal((await deliveriesOf(webhook.id)).length, 1);
        const agents = await t.inject({ method: 'GET', url: '/v1/agents?limit=100' });
        assert.ok(!agents.json().data.some((agent: any) => agent.name === 'Rolled back'));
      } finally {
        idempotency.complete = complete;
        await receiver.close();
      }
    });

    it('makes no further attempts once the webhook is disabled, and redelivers on request once enabled', async () => {
      let failing = true;
      const receiver = await startFakeWebhookReceiver(() => (failing ? 503 : 204));
      try {
        const webhook = await subscribe(receiver, ['agent.created']);
        await t.newAgent({ name: 'Paused hook' });
        await eventually(async () => (receiver.received.length > 0 ? true : null), 'the first attempt');
        const disabled = await t.inject({
          method: 'PATCH',
          url: `/v1/webhooks/${webhook.id}`,
          payload: { enabled: false, description: 'paused' },
        });
        assert.equal(disabled.statusCode, 200);
        assert.equal(disabled.json().enabled, false);
        assert.equal(disabled.json().description, 'paused');
        const [cancelled] = await eventually(async () => {
          const log = await deliveriesOf(webhook.id);
          return log[0]?.state === 'cancelled' ? log : null;
        }, 'the pending delivery to be cancelled');
        const attemptsBefore = receiver.received.length;
        assert.equal(cancelled.attempts, attemptsBefore);
        await t.newAgent({ name: 'Unheard' });
        assert.equal((await deliveriesOf(webhook.id)).length, 1, 'a disabled webhook gets no new deliveries');

        const refused = await t.inject({
          method: 'POST',
          url: `/v1/webhooks/${webhook.id}/deliveries/${cancelled.id}/redeliver`,
        });
        assert.equal(refused.statusCode, 400);
        failing = false;
        await t.inject({ method: 'PATCH', url: `/v1/webhooks/${webhook.id}`, payload: { enabled: true } });
        const again = await t.inject({
          method: 'POST',
          url: `/v1/webhooks/${webhook.id}/deliveries/${cancelled.id}/redeliver`,
        });
        assert.equal(again.statusCode, 202, again.body);
        assert.equal(again.json().eventId, cancelled.eventId);
        await eventually(async () => {
          const log = await deliveriesOf(webhook.id);
          return log.find((entry) => entry.id === again.json().id)?.state === 'succeeded' ? true : null;
        }, 'the redelivery to succeed');
        const last = receiver.received.at(-1)!;
        assert.equal(last.headers['webhook-id'], cancelled.eventId);
        assert.equal(receiver.verify(last, webhook.secret).data.name, 'Paused hook');
      } finally {
        await receiver.close();
      }
    });

    it('stops delivering to a deleted webhook and forgets its log', async () => {
      const receiver = await startFakeWebhookReceiver(() => 500);
      try {
        const webhook = await subscribe(receiver, ['agent.created']);
        await t.newAgent({ name: 'Deleted hook' });
        await eventually(async () => (receiver.received.length > 0 ? true : null), 'the first attempt');
        const deleted = await t.inject({ method: 'DELETE', url: `/v1/webhooks/${webhook.id}` });
        assert.deepEqual(deleted.json(), { id: webhook.id, deleted: true });
        const seen = receiver.received.length;
        // An attempt already on its way when the webhook was deleted may still arrive; none is made after it.
        await waitFor(() => false, 500);
        assert.ok(receiver.received.length <= seen + 1, `${receiver.received.length - seen} attempts after the delete`);
        const settled = receiver.received.length;
        assert.equal(await waitFor(() => receiver.received.length > settled, 400), null);
        assert.equal((await t.inject({ method: 'GET', url: `/v1/webhooks/${webhook.id}/deliveries` })).statusCode, 404);
        assert.equal((await t.inject({ method: 'DELETE', url: `/v1/webhooks/${webhook.id}` })).statusCode, 404);
      } finally {
        await receiver.close();
      }
    });

    it("answers another account's webhooks and deliveries as missing", async () => {
      const receiver = await startFakeWebhookReceiver();
      try {
        const other = await t.newAccount();
        const theirs = await subscribe(receiver, ['agent.created'], other);
        await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'Theirs' }, as: other });
        const [delivery] = await eventually(async () => {
          const log = await deliveriesOf(theirs.id, other);
          return log[0]?.state === 'succeeded' ? log : null;
        }, 'their delivery');
        for (const [method, url] of [
          ['GET', `/v1/webhooks/${theirs.id}`],
          ['PATCH', `/v1/webhooks/${theirs.id}`],
          ['DELETE', `/v1/webhooks/${theirs.id}`],
          ['POST', `/v1/webhooks/${theirs.id}/rotate-secret`],
          ['GET', `/v1/webhooks/${theirs.id}/deliveries`],
          ['POST', `/v1/webhooks/${theirs.id}/deliveries/${delivery.id}/redeliver`],
        ] as const) {
          const response = await t.inject({
            method,
            url,
            ...(method === 'PATCH' ? { payload: { enabled: false } } : {}),
          });
          assert.equal(response.statusCode, 404, `${method} ${url}`);
        }
        const mine = await t.inject({ method: 'GET', url: '/v1/webhooks?limit=100' });
        assert.ok(!mine.json().data.some((webhook: any) => webhook.id === theirs.id));
        // My agents' events do not reach their webhook.
        const before = receiver.received.length;
        await t.newAgent({ name: 'Mine' });
        assert.equal(await waitFor(() => receiver.received.length > before, 300), null);
      } finally {
        await receiver.close();
      }
    });

    it('refuses a bad or unknown event type and a URL that is not http(s)', async () => {
      for (const payload of [
        { url: 'http://example.com/hook', events: ['agent.exploded'] },
        { url: 'http://example.com/hook', events: [] },
        { url: 'ftp://example.com/hook', events: ['agent.created'] },
        { url: 'not a url', events: ['agent.created'] },
        { events: ['agent.created'] },
        { url: 'http://example.com/hook', events: ['agent.created'], secret: 'mine' },
      ]) {
        const response = await t.inject({ method: 'POST', url: '/v1/webhooks', payload });
        assert.equal(response.statusCode, 400, JSON.stringify(payload));
        assert.equal(response.json().code, 'validation_failed');
        assert.ok(response.json().errors[0].path.startsWith('/body'));
      }
    });

    it('rotates the secret: later deliveries verify with the new one only', async () => {
      const receiver = await startFakeWebhookReceiver();
      try {
        const webhook = await subscribe(receiver, ['agent.created']);
        const rotated = await t.inject({ method: 'POST', url: `/v1/webhooks/${webhook.id}/rotate-secret` });
        assert.equal(rotated.statusCode, 200);
        const { secret } = rotated.json();
        recordSecrets(secret);
        assert.notEqual(secret, webhook.secret);
        await t.newAgent({ name: 'Rotated' });
        await eventually(async () => (receiver.received.length > 0 ? true : null), 'the delivery');
        assert.equal(receiver.verify(receiver.received[0]!, secret).data.name, 'Rotated');
        assert.throws(() => receiver.verify(receiver.received[0]!, webhook.secret));
      } finally {
        await receiver.close();
      }
    });
  });
}

describe('webhook targets and the outbound rules', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => t?.close());

  it('refuses loopback, private and link-local targets unless the operator allows them', async () => {
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://localhost/hook',
      'http://10.0.0.5/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
    ]) {
      const response = await t.inject({
        method: 'POST',
        url: '/v1/webhooks',
        payload: { url, events: ['agent.created'] },
      });
      assert.equal(response.statusCode, 400, url);
      assert.equal(response.json().errors[0].path, '/body/url');
      assert.match(response.json().detail, /AGENTD_OUTBOUND_ALLOW_PRIVATE/);
    }
    const created = await t.inject({
      method: 'POST',
      url: '/v1/webhooks',
      payload: { url: 'https://hooks.invalid/agentd', events: ['message.failed'] },
    });
    assert.equal(created.statusCode, 201);
    const moved = await t.inject({
      method: 'PATCH',
      url: `/v1/webhooks/${created.json().id}`,
      payload: { url: 'http://192.168.1.1/hook' },
    });
    assert.equal(moved.statusCode, 400);
    assert.equal(
      (await t.inject({ method: 'GET', url: `/v1/webhooks/${created.json().id}` })).json().url,
      'https://hooks.invalid/agentd',
    );
  });
});

describe('webhooks for failed replies', () => {
  let t: TestApp;
  let provider: FakeProviderServer;
  let receiver: FakeWebhookReceiver;
  before(async () => {
    provider = await startFakeOpenAiServer();
    receiver = await startFakeWebhookReceiver();
    t = await createTestApp({
      env: {
        ...fastDelivery,
        AGENTD_OPENAI_COMPATIBLE_BASE_URL: provider.baseUrl,
        AGENTD_DEFAULT_MODEL: 'openai-compatible/fake-model',
        AGENTD_PROVIDER_RETRY_DELAY_MS: '1',
      },
    });
  });
  after(async () => {
    await t?.close();
    await provider?.close();
    await receiver?.close();
  });

  it('sends message.failed for a provider failure, and the status change when the provider rejects the key', async () => {
    const response = await t.inject({
      method: 'POST',
      url: '/v1/webhooks',
      payload: { url: receiver.url, events: ['message.failed', 'agent.status_changed', 'message.completed'] },
    });
    const webhook = response.json();
    recordSecrets(webhook.secret);
    const agent = await t.newAgent({ name: 'Failing' });
    const events = () => receiver.received.map((request) => receiver.verify(request, webhook.secret));

    provider.setDefault({ status: 500 });
    const unavailable = await t.inject({
      method: 'POST',
      url: `/v1/agents/${agent.id}/messages`,
      payload: { text: 'hello', userId: 'u1' },
    });
    assert.equal(unavailable.statusCode, 503);
    const [failed] = await eventually(async () => (events().length >= 1 ? events() : null), 'message.failed');
    assert.equal(failed.type, 'message.failed');
    assert.equal(failed.data.agentId, agent.id);
    assert.equal(failed.data.userId, 'u1');
    assert.equal(failed.data.error.code, 'provider_unavailable');
    assert.equal(failed.data.error.status, 503);

    provider.setDefault({ status: 401, errorMessage: 'invalid api key' });
    const rejected = await t.inject({
      method: 'POST',
      url: `/v1/agents/${agent.id}/messages`,
      payload: { text: 'hello again', userId: 'u1' },
    });
    assert.equal(rejected.statusCode, 503);
    assert.equal(rejected.json().code, 'agent_unavailable');
    const all = await eventually(async () => (events().length >= 3 ? events() : null), 'the status change');
    const statusChange = all.find((event) => event.type === 'agent.status_changed');
    assert.equal(statusChange.data.to, 'error');
    assert.equal(statusChange.data.by, 'service');
    assert.equal(all.filter((event) => event.type === 'message.failed').at(-1).data.error.code, 'agent_unavailable');
    assert.ok(!all.some((event) => event.type === 'message.completed'), 'a failed reply is not reported completed');
  });
});
