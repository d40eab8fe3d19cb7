import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Scope } from '../../src/services/context.js';
import { scopes } from '../../src/services/context.js';
import { backends, createTestApp, type TestAccount, type TestApp } from '../helpers/test-app.js';

/**
 * The same checks on every authenticated route: no key, a malformed header, an
 * unknown key, a revoked key, a key without the route's scope, and another
 * account's resource id. The table is checked against the OpenAPI document, so
 * a new route without a row here fails the suite.
 */
interface RouteCase {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** OpenAPI path template. */
  path: string;
  /** null: any valid key may call it. */
  scope: Scope | null;
  body?: unknown;
  /** The kind of resource named in the path, for the other-account check. */
  resource?: 'agent' | 'apiKey';
  /** A query string the operation needs to be valid. */
  query?: string;
}

const routes: RouteCase[] = [
  { method: 'POST', path: '/v1/agents', scope: 'agents:write', body: { name: 'Probe' } },
  { method: 'GET', path: '/v1/agents', scope: 'agents:read' },
  { method: 'GET', path: '/v1/agents/{agentId}', scope: 'agents:read', resource: 'agent' },
  {
    method: 'PATCH',
    path: '/v1/agents/{agentId}',
    scope: 'agents:write',
    body: { name: 'Renamed' },
    resource: 'agent',
  },
  { method: 'DELETE', path: '/v1/agents/{agentId}', scope: 'agents:delete', resource: 'agent' },
  {
    method: 'POST',
    path: '/v1/agents/{agentId}/messages',
    scope: 'messages:send',
    body: { text: 'hello' },
    resource: 'agent',
  },
  { method: 'GET', path: '/v1/agents/{agentId}/messages', scope: 'agents:read', resource: 'agent' },
  {
    method: 'DELETE',
    path: '/v1/agents/{agentId}/conversations',
    scope: 'agents:write',
    resource: 'agent',
    query: '?userId=probe',
  },
  { method: 'POST', path: '/v1/api-keys', scope: 'keys:manage', body: {} },
  { method: 'GET', path: '/v1/api-keys', scope: 'keys:manage' },
  { method: 'DELETE', path: '/v1/api-keys/{keyId}', scope: 'keys:manage', resource: 'apiKey' },
  { method: 'GET', path: '/v1/plugins', scope: null },
  {
    method: 'POST',
    path: '/v1/chat/completions',
    scope: 'messages:send',
    body: { model: 'agent:Probe target', messages: [{ role: 'user', content: 'hello' }] },
  },
  { method: 'GET', path: '/v1/models', scope: 'agents:read' },
  { method: 'GET', path: '/v1/models/{model}', scope: 'agents:read', resource: 'agent' },
];

/** The OpenAI-compatible routes answer `{error: {message, code}}`; read as a problem's `detail` and `code`. */
function problemOf(response: { json(): any }): { code: string; detail: string } {
  const body = response.json();
  return body.error ? { code: body.error.code, detail: body.error.message } : body;
}

function assertUnauthorized(
  response: { statusCode: number; headers: Record<string, unknown>; json(): any },
  label: string,
) {
  assert.equal(response.statusCode, 401, label);
  assert.match(String(response.headers['www-authenticate']), /^Bearer/, label);
  const problem = problemOf(response);
  assert.equal(problem.code, 'unauthorized', label);
  assert.equal(problem.detail, 'A valid API key is required.', `${label}: the same answer everywhere`);
  assert.equal(response.headers['x-ratelimit-limit'], undefined, `${label}: no limit applies before authentication`);
}

for (const backend of backends) {
  describe(`security on every route on ${backend.label}`, { skip: backend.skip }, () => {
    let t: TestApp;
    let victim: TestAccount;
    let victimAgentId: string;
    let victimKeyId: string;
    let revokedKey: string;

    before(async () => {
      t = await createTestApp({ backend: backend.name });
      victim = await t.newAccount();
      victimAgentId = (
        await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'Victim' }, as: victim })
      ).json().id;
      victimKeyId = victim.keyId;
      const doomed = await t.newKey(t.owner.accountId);
      assert.equal((await t.inject({ method: 'DELETE', url: `/v1/api-keys/${doomed.keyId}` })).statusCode, 200);
      revokedKey = doomed.key;
      await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'Probe target' } });
    });
    after(async () => t?.close());

    async function ownResourceUrl(route: RouteCase): Promise<string> {
      if (route.resource === 'agent') {
        const agent = (await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'Own' } })).json();
        return route.path.replace('{agentId}', agent.id).replace('{model}', agent.id);
      }
      if (route.resource === 'apiKey') {
        const key = (await t.inject({ method: 'POST', url: '/v1/api-keys', payload: { name: 'own' } })).json();
        return route.path.replace('{keyId}', key.id);
      }
      return route.path;
    }

    it('covers every authenticated operation of the OpenAPI document', async () => {
      const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
      const documented: string[] = [];
      for (const [path, operations] of Object.entries<Record<string, { security?: unknown[] }>>(document.paths)) {
        for (const [method, operation] of Object.entries(operations)) {
          const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
          if (!isPublic && path.startsWith('/v1/')) documented.push(`${method.toUpperCase()} ${path}`);
        }
      }
      const tested = routes.map((route) => `${route.method} ${route.path}`);
      assert.deepEqual([...documented].sort(), [...tested].sort());
    });

    for (const route of routes) {
      describe(`${route.method} ${route.path}`, () => {
        const request = (url: string, headers: Record<string, string>) =>
          t.app.inject({
            method: route.method,
            url: `${url}${route.query ?? ''}`,
            headers,
            ...(route.body !== undefined ? { payload: route.body as object } : {}),
          });

        it('refuses a request without a key', async () => {
          assertUnauthorized(await request(await ownResourceUrl(route), {}), 'no key');
        });

        it('refuses malformed authorization headers', async () => {
          const url = await ownResourceUrl(route);
          for (const header of [
            'Basic YWxhZGRpbjpvcGVuc2VzYW1l',
            'Bearer',
            'Bearer ',
            `Bearer ${t.owner.key} extra`,
            t.owner.key,
            'Bearer agd_short',
          ]) {
            assertUnauthorized(await request(url, { authorization: header }), `header "${header.slice(0, 20)}"`);
          }
        });

        it('refuses an unknown key', async () => {
          const unknown = `agd_${'Z'.repeat(40)}`;
          assertUnauthorized(
            await request(await ownResourceUrl(route), { authorization: `Bearer ${unknown}` }),
            'unknown key',
          );
        });

        it('refuses a revoked key', async () => {
          assertUnauthorized(
            await request(await ownResourceUrl(route), { authorization: `Bearer ${revokedKey}` }),
            'revoked key',
          );
        });

        const scope = route.scope;
        if (scope === null) {
          it('answers a key with any one scope', async () => {
            for (const only of scopes) {
              const narrow = await t.newKey(t.owner.accountId, [only]);
              const response = await request(await ownResourceUrl(route), narrow.headers);
              assert.ok(response.statusCode < 400, `${only}: ${response.statusCode} ${response.body}`);
            }
          });
        } else {
          it(`refuses a key without ${scope} and names the scope`, async () => {
            const limited = await t.newKey(
              t.owner.accountId,
              scopes.filter((scope) => scope !== scope),
            );
            const response = await request(await ownResourceUrl(route), limited.headers);
            assert.equal(response.statusCode, 403);
            const problem = problemOf(response);
            assert.equal(problem.code, 'insufficient_scope');
            assert.ok(problem.detail.includes(scope), problem.detail);
          });

          it('answers a key with only that scope', async () => {
            const narrow = await t.newKey(t.owner.accountId, [scope]);
            const response = await request(await ownResourceUrl(route), narrow.headers);
            assert.ok(response.statusCode < 400, `${response.statusCode} ${response.body}`);
            assert.ok(response.headers['x-ratelimit-limit'], 'authenticated responses carry the rate-limit headers');
          });
        }

        if (route.resource) {
          it("answers another account's id exactly like a missing one (404)", async () => {
            const theirs = route.path
              .replace('{agentId}', victimAgentId)
              .replace('{model}', victimAgentId)
              .replace('{keyId}', victimKeyId);
            const missing = route.path
              .replace('{agentId}', 'agt_01ARZ3NDEKTSV4RRFFQ69G5FAV')
              .replace('{model}', 'agt_01ARZ3NDEKTSV4RRFFQ69G5FAV')
              .replace('{keyId}', 'key_01ARZ3NDEKTSV4RRFFQ69G5FAV');
            const foreign = await request(theirs, t.owner.headers);
            const absent = await request(missing, t.owner.headers);
            assert.equal(foreign.statusCode, 404);
            assert.equal(absent.statusCode, 404);
            assert.equal(problemOf(foreign).detail, problemOf(absent).detail);
            assert.equal(problemOf(foreign).code, 'not_found');
          });
        }
      });
    }

    it("leaves the other account's resources untouched", async () => {
      const agent = await t.inject({ method: 'GET', url: `/v1/agents/${victimAgentId}`, as: victim });
      assert.equal(agent.statusCode, 200);
      assert.equal(agent.json().name, 'Victim');
      const keys = (await t.inject({ method: 'GET', url: '/v1/api-keys', as: victim })).json();
      assert.ok(keys.data.some((key: { id: string }) => key.id === victimKeyId));
    });
  });
}
