import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateApiKey } from '../../src/security/api-key-secret.js';
import { startFakeWebhookReceiver, type FakeWebhookReceiver } from '../helpers/fake-webhook-receiver.js';
import { recordSecrets } from '../helpers/known-secrets.js';
import { startServer, type ServerProcess } from '../helpers/server-process.js';
import { eventually } from '../helpers/wait.js';

/**
 * The outbox survives a crash: the server is killed with SIGKILL while its
 * only attempt at a delivery waits on the receiver, and the restarted server
 * delivers the event once the dead instance's claim has lapsed.
 */
describe('webhook delivery across a crash', () => {
  let dataDir: string;
  let receiver: FakeWebhookReceiver;
  let server: ServerProcess | null = null;
  const key = generateApiKey();
  const env = () => ({
    AGENTD_DATA_DIR: dataDir,
    AGENTD_BOOTSTRAP_KEY: key,
    AGENTD_OUTBOUND_ALLOW_PRIVATE: 'true',
    // A claim lapses 5 s after the time-out: the restarted server takes the delivery over after about 6 s.
    AGENTD_WEBHOOK_TIMEOUT_MS: '1000',
    AGENTD_WEBHOOK_RETRY_BASE_MS: '10',
    AGENTD_WEBHOOK_POLL_MS: '200',
  });

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-webhook-crash-'));
    // The first request is held unanswered until the server is gone; later ones succeed.
    receiver = await startFakeWebhookReceiver((index) => (index === 0 ? 'hang' : 204));
  });
  after(async () => {
    await server?.stop('SIGKILL');
    await receiver.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function call(method: string, url: string, body?: unknown) {
    const response = await fetch(`${server!.url}${url}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  it('delivers an event after a kill -9 between the change and its delivery', async () => {
    server = await startServer(env());
    const webhook = await call('POST', '/v1/webhooks', { url: receiver.url, events: ['agent.created'] });
    assert.equal(webhook.status, 201);
    recordSecrets(webhook.body.secret);
    const agent = await call('POST', '/v1/agents', { name: 'Survivor' });
    assert.equal(agent.status, 201);
    await eventually(async () => (receiver.received.length > 0 ? true : null), 'the first attempt');
    const killed = await server.stop('SIGKILL');
    assert.equal(killed.signal, 'SIGKILL');
    const eventId = receiver.received[0]!.headers['webhook-id'] as string;

    server = await startServer(env());
    await eventually(
      async () => (receiver.deliveriesOf(eventId).length >= 2 ? true : null),
      'the delivery after the restart',
      30_000,
    );
    const delivered = receiver.deliveriesOf(eventId).at(-1)!;
    const payload = receiver.verify(delivered, webhook.body.secret);
    assert.equal(payload.type, 'agent.created');
    assert.equal(payload.data.agentId, agent.body.id);
    const log = await eventually(async () => {
      const response = await call('GET', `/v1/webhooks/${webhook.body.id}/deliveries`);
      return response.body.data[0]?.state === 'succeeded' ? response.body.data : null;
    }, 'the log to show the delivery');
    assert.equal(log.length, 1);
    // The attempt the crash interrupted was never recorded; the one after the restart was.
    assert.equal(log[0].attempts, 1);
    assert.equal(log[0].lastAttempt.statusCode, 204);
  });
});
