import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends, createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * PATCHes that change the status of different agents of one account at the
 * same time, some to `inactive` and some back to `active`: each moves the
 * account's maintained counts between two statuses, and every one of them
 * must succeed (found by the crash-durability load as a 500 on PostgreSQL).
 */
for (const backend of backends) {
  describe(`concurrent status changes on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ backend: backend.name });
    });
    after(() => t?.close());

    it('answers 200 to every one of many simultaneous status PATCHes in both directions', async () => {
      const agents = await Promise.all(
        Array.from({ length: 16 }, (_, index) => t.newAgent({ status: index % 2 === 0 ? 'active' : 'inactive' })),
      );
      const statuses = new Map<string, string>(agents.map((agent) => [agent.id, agent.status]));
      for (let round = 0; round < 6; round += 1) {
        const answers = await Promise.all(
          agents.map((agent) => {
            const status = statuses.get(agent.id) === 'active' ? 'inactive' : 'active';
            statuses.set(agent.id, status);
            return t.inject({ method: 'PATCH', url: `/v1/agents/${agent.id}`, payload: { status } });
          }),
        );
        assert.deepEqual(
          answers.map((answer) => answer.statusCode).filter((status) => status !== 200),
          [],
          answers.find((answer) => answer.statusCode !== 200)?.body,
        );
      }
      const listed = await t.inject({ method: 'GET', url: '/v1/agents?status=active&limit=100' });
      assert.equal(listed.json().pagination.total, [...statuses.values()].filter((s) => s === 'active').length);
    });
  });
}
