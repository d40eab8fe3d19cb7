import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { sendStreamedMessage } from '../helpers/message-stream.js';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * A reply that is still streaming when its agent is deleted: the delete
 * promises the agent's conversations are gone for good, so the exchange that
 * finishes afterwards must not be stored for an agent that no longer exists.
 * (Found by the crash-durability run as conversation turns of no agent.)
 */
for (const backend of backends) {
  describe(`a reply that outlives its agent's delete on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp;
    let base: string;
    before(async () => {
      // Slow words, so the delete lands while the reply is still being written.
      t = await createTestApp({ backend: backend.name, env: { AGENTD_BUILTIN_WORD_DELAY_MS: '40' } });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });
    after(() => t?.close());

    it('finishes the stream but leaves no conversation turns of the deleted agent', async () => {
      const agent = await t.newAgent({ bio: 'Ava explains harbors, tides and the ships that use them at length.' });
      const message = await sendStreamedMessage(base, t.owner.key, agent.id, {
        text: 'Tell me about harbors.',
        userId: 'u1',
      });
      assert.equal(message.status, 200);
      assert.equal((await message.events!.next())?.event, 'message.started');

      const deleted = await t.inject({ method: 'DELETE', url: `/v1/agents/${agent.id}` });
      assert.equal(deleted.statusCode, 200);
      const rest = await message.events!.rest();
      assert.ok(
        rest.some((event) => event.event === 'message.delta'),
        'the reply was still being written after the delete',
      );
      assert.equal(rest.at(-1)?.event, 'message.completed');

      const turns = await t.deps.services.repositories.db
        .selectFrom('messages')
        .select('id')
        .where('agent_id', '=', agent.id)
        .execute();
      assert.deepEqual(turns, [], 'no turns are stored for the deleted agent');
    });
  });
}
