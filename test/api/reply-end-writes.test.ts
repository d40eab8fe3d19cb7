import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { recordSecrets } from '../helpers/known-secrets.js';
import { sendStreamedMessage } from '../helpers/message-stream.js';
import { startFakeWebhookReceiver } from '../helpers/fake-webhook-receiver.js';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/wait.js';

/**
 * What a completed reply writes when it ends: its exchange, its run's end with
 * the run's last events, and its `message.completed` webhook deliveries, all in
 * one commit. On PostgreSQL that is one statement when the account has no
 * webhook for the event, and the outbox's transaction when it has.
 */
for (const backend of backends) {
  describe(`a completed reply's writes on ${backend.label}`, { skip: backend.skip }, () => {
    let t: TestApp;
    let base: string;
    before(async () => {
      t = await createTestApp({
        backend: backend.name,
        // Slow words: a test can act while the reply is still being written.
        env: { AGENTD_OUTBOUND_ALLOW_PRIVATE: 'true', AGENTD_BUILTIN_WORD_DELAY_MS: '30' },
      });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });
    after(() => t?.close());

    const turnsOf = async (agentId: string, as = t.owner) =>
      (await t.inject({ method: 'GET', url: `/v1/agents/${agentId}/messages`, as })).json().data as any[];
    const runOf = async (agentId: string, runId: string, as = t.owner) =>
      (await t.inject({ method: 'GET', url: `/v1/agents/${agentId}/runs/${runId}`, as })).json();

    it('stores the exchange, the run’s end and the webhook delivery of an account subscribed to message.completed', async () => {
      const receiver = await startFakeWebhookReceiver();
      try {
        const account = await t.newAccount();
        const created = await t.inject({
          method: 'POST',
          url: '/v1/webhooks',
          payload: { url: receiver.url, events: ['message.completed'] },
          as: account,
        });
        assert.equal(created.statusCode, 201, created.body);
        recordSecrets(created.json().secret);
        const agentResponse = await t.inject({
          method: 'POST',
          url: '/v1/agents',
          payload: { name: 'Subscribed' },
          as: account,
        });
        const agent = agentResponse.json();
        const sent = await t.inject({
          method: 'POST',
          url: `/v1/agents/${agent.id}/messages`,
          payload: { text: 'hello', userId: 'u1' },
          as: account,
        });
        assert.equal(sent.statusCode, 200, sent.body);
        const reply = sent.json();

        const turns = await turnsOf(agent.id, account);
        assert.deepEqual(
          turns.map((turn) => turn.role),
          ['agent', 'user'],
        );
        assert.equal(turns[0].id, reply.id);
        const run = await runOf(agent.id, reply.runId, account);
        assert.equal(run.status, 'completed');
        assert.deepEqual(run.reply, reply);
        const delivered = await eventually(
          async () => (receiver.received.length > 0 ? receiver.received : null),
          'the message.completed delivery',
        );
        assert.equal(JSON.parse(delivered[0]!.body).type, 'message.completed');
        assert.equal(JSON.parse(delivered[0]!.body).data.messageId, reply.id);
      } finally {
        await receiver.close();
      }
    });

    it('keeps the ending of a run ended elsewhere while its reply was written, and still stores the exchange', async () => {
      const agent = await t.newAgent({ bio: 'Ava explains harbors, tides and the ships that use them at length.' });
      const message = await sendStreamedMessage(base, t.owner.key, agent.id, { text: 'Harbors?', userId: 'u1' });
      assert.equal(message.status, 200);
      const started = await message.events!.next();
      assert.equal(started?.event, 'message.started');
      const runId = started!.data.runId as string;
      // As the sweep ends the run of an instance it took for stopped.
      const problem = {
        type: '/docs/errors#service_unavailable',
        title: 'Service unavailable',
        status: 503,
        code: 'service_unavailable',
        detail: 'The instance producing this run stopped before it ended.',
        requestId: runId,
      };
      await t.deps.services.repositories.db
        .updateTable('runs')
        .set({ status: 'failed', error: JSON.stringify(problem), finished_at: new Date().toISOString() })
        .where('id', '=', runId)
        .execute();

      const rest = await message.events!.rest();
      assert.equal(rest.at(-1)?.event, 'message.completed');
      const run = await runOf(agent.id, runId);
      assert.equal(run.status, 'failed', 'the earlier ending stands');
      assert.equal(run.error.code, 'service_unavailable');
      assert.equal(run.reply, null);
      const turns = await turnsOf(agent.id);
      assert.deepEqual(
        turns.map((turn) => turn.role),
        ['agent', 'user'],
      );
      assert.equal(turns[0].id, rest.at(-1)?.data.id);
    });

    if (backend.name === 'postgres') {
      it('sends a completed reply’s exchange, run end and events as one statement, not a transaction', async () => {
        const agent = await t.newAgent();
        // Each statement sent, and whether its connection was inside a transaction (other work, the heartbeat
        // or the task scheduler, may use transactions meanwhile on other connections).
        const sent: { text: string; inTransaction: boolean }[] = [];
        const open = new WeakSet<pg.Client>();
        const query = pg.Client.prototype.query as (...parameters: unknown[]) => unknown;
        pg.Client.prototype.query = function recorded(this: pg.Client, ...parameters: unknown[]) {
          const config = parameters[0];
          const raw = typeof config === 'string' ? config : (config as { text?: unknown } | undefined)?.text;
          if (typeof raw === 'string') {
            const text = raw.replace(/\s+/g, ' ').toLowerCase();
            if (/^begin/.test(text)) open.add(this);
            else if (/^(commit|rollback)/.test(text)) open.delete(this);
            sent.push({ text, inTransaction: open.has(this) });
          }
          return query.apply(this, parameters);
        } as typeof pg.Client.prototype.query;
        let reply;
        try {
          const response = await t.inject({
            method: 'POST',
            url: `/v1/agents/${agent.id}/messages`,
            payload: { text: 'hello', userId: 'u1' },
          });
          assert.equal(response.statusCode, 200, response.body);
          reply = response.json();
        } finally {
          pg.Client.prototype.query = query as typeof pg.Client.prototype.query;
        }
        const writes = sent.filter(({ text }) => /insert into "?messages"? /.test(text));
        assert.equal(writes.length, 1, 'one statement stores the turns');
        assert.match(writes[0]!.text, /update runs set status/, 'the same statement ends the run');
        assert.match(writes[0]!.text, /insert into run_events/, 'and stores its last events');
        assert.equal(writes[0]!.inTransaction, false, 'a statement of its own, committed alone');
        const others = sent.filter((statement) => statement !== writes[0]);
        assert.ok(
          !others.some(({ text }) => /update "?runs"? set "?status"?/.test(text)),
          'no other write ends the run',
        );

        const run = await runOf(agent.id, reply.runId);
        assert.equal(run.status, 'completed');
        assert.deepEqual(run.reply, reply);
        assert.equal(run.eventCount > 2, true);
        assert.equal((await turnsOf(agent.id)).length, 2);
      });
    }
  });
}
