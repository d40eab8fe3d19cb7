import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTestApp } from '../helpers/test-app.js';

describe('logs', () => {
  it('write one line per request and never a key, an Authorization header or a secret', async () => {
    const t = await createTestApp({ captureLogs: true });
    try {
      const platformSecret = 'xoxb-platform-secret-0001';
      const pluginSecret = 'plugin-secret-value-0002';
      const created = await t.inject({
        method: 'POST',
        url: '/v1/agents',
        headers: { 'x-request-id': 'log-test-1' },
        payload: {
          name: 'Logged',
          platforms: [{ type: 'slack', secrets: { botToken: platformSecret } }],
          plugins: [{ name: 'mcp', config: { url: 'http://127.0.0.1:9/mcp' }, secrets: { apiKey: pluginSecret } }],
        },
      });
      assert.equal(created.statusCode, 201);
      const issued = (await t.inject({ method: 'POST', url: '/v1/api-keys', payload: { name: 'logged' } })).json();
      await t.app.inject({ method: 'GET', url: '/v1/agents', headers: { authorization: `Bearer ${issued.key}x` } });
      await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${created.json().id}`,
        payload: {
          plugins: [
            { name: 'mcp', config: { url: 'http://127.0.0.1:9/mcp' }, secrets: { apiKey: 'rotated-secret-0003' } },
          ],
        },
      });

      const all = t.logs?.text() ?? '';
      for (const secret of [t.owner.key, issued.key, platformSecret, pluginSecret, 'rotated-secret-0003', 'Bearer ']) {
        assert.ok(!all.includes(secret), `logs must not contain ${secret.slice(0, 8)}…`);
      }
      const completed = (t.logs?.entries() ?? []).filter((entry) => entry.msg === 'request completed');
      assert.equal(completed.length, 4);
      const first = completed.find((entry) => entry.requestId === 'log-test-1') as Record<string, unknown>;
      assert.deepEqual(
        { method: first.method, route: first.route, status: first.status },
        { method: 'POST', route: '/v1/agents', status: 201 },
      );
    } finally {
      await t.close();
    }
  });
});
