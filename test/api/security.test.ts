import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Scope } from '../../src/services/context.js';
import { newId } from '../../src/ids.js';
import { scopes } from '../../src/services/context.js';
import { startFakeX, type FakeX } from '../helpers/fake-x-server.js';
import { tinyPng } from '../helpers/images.js';
import { securityCasesOf, type SecurityCase } from '../helpers/security-cases.js';
import { backends, createTestApp, type TestAccount, type TestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/wait.js';

/**
 * The same checks on every authenticated route: no key, a malformed header, an
 * unknown key, a revoked key, a key without the route's scope, and another
 * account's resource id. The routes, the scope each needs (`x-scope`) and a
 * minimal valid request are read from the OpenAPI document, so a new route is
 * covered the day it is added.
 */
async function readDocument(): Promise<any> {
  const probe = await createTestApp();
  try {
    return (await probe.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
  } finally {
    await probe.close();
  }
}

const document = await readDocument();
let casesError: Error | null = null;
let routes: SecurityCase[] = [];
try {
  routes = securityCasesOf(document);
} catch (error) {
  casesError = error as Error;
}

/** The operations and scopes of the first hand-written table: a floor the document may only add to. */
const knownOperations: Array<[label: string, scope: Scope | null]> = [
  ['POST /v1/agents', 'agents:write'],
  ['GET /v1/agents', 'agents:read'],
  ['GET /v1/agents/{agentId}', 'agents:read'],
  ['PATCH /v1/agents/{agentId}', 'agents:write'],
  ['DELETE /v1/agents/{agentId}', 'agents:delete'],
  ['POST /v1/agents/{agentId}/messages', 'messages:send'],
  ['GET /v1/agents/{agentId}/messages', 'agents:read'],
  ['DELETE /v1/agents/{agentId}/conversations', 'agents:write'],
  ['POST /v1/api-keys', 'keys:manage'],
  ['GET /v1/api-keys', 'keys:manage'],
  ['DELETE /v1/api-keys/{keyId}', 'keys:manage'],
  ['GET /v1/plugins', null],
  ['POST /v1/agents/import', 'agents:write'],
  ['GET /v1/agents/{agentId}/export', 'agents:read'],
  ['POST /v1/chat/completions', 'messages:send'],
  ['GET /v1/models', 'agents:read'],
  ['GET /v1/models/{model}', 'agents:read'],
  ['GET /v1/agents/{agentId}/metrics', 'agents:read'],
  ['GET /v1/metrics/usage', 'agents:read'],
  ['GET /v1/agents/{agentId}/approvals', 'agents:read'],
  ['GET /v1/agents/{agentId}/approvals/{approvalId}', 'agents:read'],
  ['POST /v1/agents/{agentId}/approvals/{approvalId}', 'approvals:write'],
  ['GET /v1/files/{fileId}', 'agents:read'],
  ['GET /v1/agents/{agentId}/versions', 'agents:read'],
  ['GET /v1/agents/{agentId}/versions/{version}', 'agents:read'],
  ['GET /v1/agents/{agentId}/versions/{version}/diff', 'agents:read'],
  ['POST /v1/agents/{agentId}/versions/{version}/restore', 'agents:write'],
];

/** Path parameters the suite can fill, by name; a route with another one fails until it is added here. */
/** Path parameters the suite fills; an OpenAI-door model is an agent id. */
const fillableParameters = [
  'agentId',
  'model',
  'keyId',
  'webhookId',
  'deliveryId',
  'knowledgeBaseId',
  'documentId',
  'taskId',
  'runId',
  'type',
  'approvalId',
  'fileId',
  'version',
  'datasetId',
  'evalId',
  'index',
];

/** The X account the suite's own agents post with (a fake X API on loopback). */
const probeX = { id: '1500000000000000555', username: 'probe', userAccessToken: 'x-user-token-security-probe' };

/** A target that never resolves (RFC 2606), so webhooks made here send nothing anywhere. */
const unreachableTarget = 'https://hooks.invalid/agentd';

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
    let victimKnowledgeBaseId: string;
    let victimDocumentId: string;
    let victimTaskId: string;
    let victimRunId: string;
    let victimApprovalId: string;
    let victimFileId: string;
    let victimDatasetId: string;
    let victimEvalId: string;

    /** A dataset of `as` with one case. */
    async function newDataset(as: TestAccount = t.owner): Promise<string> {
      const created = await t.inject({
        method: 'POST',
        url: '/v1/eval-datasets',
        payload: {
          name: 'Probe',
          cases: [{ id: 'c1', messages: ['hi'], expect: [{ type: 'contains', value: 'hi' }] }],
        },
        as,
      });
      assert.equal(created.statusCode, 201, created.body);
      return created.json().id;
    }

    /**
     * An eval of the agent: started through the API, or for a cancel one still
     * running, written directly as this instance's (its runtime runs only what
     * it claimed itself, so it stays running).
     */
    async function ownEval(agentId: string, unfinished: boolean): Promise<string> {
      const datasetId = await newDataset();
      if (unfinished) {
        const id = newId('eval');
        await t.deps.services.repositories.evals.insert({
          id,
          account_id: t.owner.accountId,
          agent_id: agentId,
          dataset_id: datasetId,
          dataset_name: 'Probe',
          cases: JSON.stringify([{ id: 'c1', messages: ['hi'], expect: [] }]),
          case_count: 1,
          versions: JSON.stringify([1]),
          judge: JSON.stringify({ provider: 'builtin', model: 'echo', agentKey: true }),
          concurrency: 1,
          status: 'running',
          instance_id: t.deps.services.runs.instanceId,
          key_id: t.owner.keyId,
          error: null,
          takeovers: 0,
          cancel_requested_at: null,
          created_at: new Date().toISOString(),
          started_at: new Date().toISOString(),
          finished_at: null,
        });
        return id;
      }
      const started = await t.inject({ method: 'POST', url: `/v1/agents/${agentId}/evals`, payload: { datasetId } });
      assert.equal(started.statusCode, 202, started.body);
      return started.json().id;
    }

    /** A file of `as`: an image sent with a message of one of its agents, as its history lists it. */
    async function newFile(agentId: string, as: TestAccount = t.owner): Promise<string> {
      const sent = await t.inject({
        method: 'POST',
        url: `/v1/agents/${agentId}/messages`,
        payload: {
          text: 'a picture',
          userId: 'probe',
          attachments: [{ type: 'image', data: tinyPng().toString('base64') }],
        },
        as,
      });
      assert.equal(sent.statusCode, 200, sent.body);
      const history = await t.inject({ method: 'GET', url: `/v1/agents/${agentId}/messages?userId=probe`, as });
      const fileId = history.json().data.find((turn: any) => turn.attachments)?.attachments[0].fileId;
      assert.ok(fileId, history.body);
      return fileId;
    }
    let revokedKey: string;
    let victimDelivery: { webhookId: string; deliveryId: string };
    let x: FakeX;

    /** A webhook of `as` subscribed to events the suite does not cause, so it gets no deliveries. */
    async function newWebhook(as: TestAccount, events = ['message.failed']): Promise<string> {
      const response = await t.inject({
        method: 'POST',
        url: '/v1/webhooks',
        payload: { url: unreachableTarget, events },
        as,
      });
      assert.equal(response.statusCode, 201, response.body);
      return response.json().id;
    }

    /** A webhook of `as` with one delivery in its log: subscribed to status changes, then one is made. */
    async function newDelivery(as: TestAccount): Promise<{ webhookId: string; deliveryId: string }> {
      const webhookId = await newWebhook(as, ['agent.status_changed']);
      const agentId = (await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'Paused' }, as })).json()
        .id;
      await t.inject({ method: 'PATCH', url: `/v1/agents/${agentId}`, payload: { status: 'inactive' }, as });
      const deliveries = await t.inject({ method: 'GET', url: `/v1/webhooks/${webhookId}/deliveries`, as });
      const deliveryId = deliveries.json().data[0]?.id;
      assert.ok(deliveryId, deliveries.body);
      return { webhookId, deliveryId };
    }

    before(async () => {
      x = await startFakeX();
      x.addAccount(probeX);
      t = await createTestApp({ backend: backend.name, env: { AGENTD_X_API_URL: x.apiUrl } });
      victim = await t.newAccount();
      victimAgentId = (
        await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'Victim' }, as: victim })
      ).json().id;
      victimKeyId = victim.keyId;
      victimKnowledgeBaseId = (
        await t.inject({ method: 'POST', url: '/v1/knowledge-bases', payload: { name: 'Victim base' }, as: victim })
      ).json().id;
      victimDocumentId = (
        await t.inject({
          method: 'POST',
          url: `/v1/knowledge-bases/${victimKnowledgeBaseId}/documents`,
          payload: { title: 'Victim document', content: 'victim content' },
          as: victim,
        })
      ).json().id;
      victimTaskId = (
        await t.inject({
          method: 'POST',
          url: `/v1/agents/${victimAgentId}/tasks`,
          payload: { name: 'Victim task', instructions: 'Victim.', schedule: { everySeconds: 3600 } },
          as: victim,
        })
      ).json().id;
      const doomed = await t.newKey(t.owner.accountId);
      assert.equal((await t.inject({ method: 'DELETE', url: `/v1/api-keys/${doomed.keyId}` })).statusCode, 200);
      revokedKey = doomed.key;
      await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'Probe target' } });
      victimDelivery = await newDelivery(victim);
      victimFileId = await newFile(victimAgentId, victim);
      victimRunId = (
        await t.inject({
          method: 'POST',
          url: `/v1/agents/${victimAgentId}/messages`,
          payload: { text: 'hello' },
          as: victim,
        })
      ).json().runId;
      victimApprovalId = await pendingApproval(victimAgentId, victim);
      victimDatasetId = await newDataset(victim);
      // An eval is started on a dataset of the caller's account: the schema cannot name one.
      const startEval = routes.find((route) => route.label === 'POST /v1/agents/{agentId}/evals');
      if (startEval !== undefined) startEval.body = { datasetId: await newDataset() };
      victimEvalId = (
        await t.inject({
          method: 'POST',
          url: `/v1/agents/${victimAgentId}/evals`,
          payload: { datasetId: victimDatasetId },
          as: victim,
        })
      ).json().id;
    });

    /** A tool call of the agent waiting for approval: its math plugin's calculate needs one (the builtin model calls it). */
    async function pendingApproval(agentId: string, as = t.owner): Promise<string> {
      const patched = await t.inject({
        method: 'PATCH',
        url: `/v1/agents/${agentId}`,
        payload: { plugins: [{ name: 'math', approval: { tools: ['calculate'] } }] },
        as,
      });
      assert.equal(patched.statusCode, 200, patched.body);
      const sent = await t.inject({
        method: 'POST',
        url: `/v1/agents/${agentId}/messages`,
        payload: { text: '/tool calculate {"expression": "1+1"}' },
        as,
      });
      assert.equal(sent.json().finishReason, 'approval_required', sent.body);
      return sent.json().approvals[0].approvalId;
    }

    /**
     * A run of the caller's agent: a finished one, or for a cancel one still
     * queued (written directly: no instance picks it up, so it stays queued).
     */
    async function ownRun(agentId: string, unfinished: boolean): Promise<string> {
      if (unfinished) {
        const id = newId('run');
        await t.deps.services.repositories.runs.insert({
          id,
          account_id: t.owner.accountId,
          agent_id: agentId,
          trigger: 'message',
          status: 'queued',
          background: 1,
          input: 'queued',
          event_count: 0,
          created_at: new Date().toISOString(),
        });
        return id;
      }
      const sent = await t.inject({ method: 'POST', url: `/v1/agents/${agentId}/messages`, payload: { text: 'hi' } });
      assert.equal(sent.statusCode, 200, sent.body);
      return sent.json().runId;
    }
    after(async () => {
      await t?.close();
      await x?.close();
    });

    /** Fills each path parameter: `own` creates a fresh resource of the caller's account. */
    async function urlFor(route: SecurityCase, whose: 'own' | 'foreign' | 'missing'): Promise<string> {
      let url = route.path;
      const ownDelivery =
        route.pathParameters.includes('deliveryId') && whose === 'own' ? await newDelivery(t.owner) : null;
      let ownKnowledgeBaseId: string | null = null;
      let ownAgentId: string | null = null;
      for (const name of route.pathParameters) {
        let value: string;
        if (name === 'webhookId' || name === 'deliveryId') {
          const key = name === 'webhookId' ? 'webhookId' : 'deliveryId';
          value =
            whose === 'foreign'
              ? victimDelivery[key]
              : whose === 'missing'
                ? `${name === 'webhookId' ? 'whk' : 'dlv'}_01ARZ3NDEKTSV4RRFFQ69G5FAV`
                : (ownDelivery?.[key] ?? (await newWebhook(t.owner)));
        } else if (name === 'agentId' || name === 'model') {
          value =
            whose === 'foreign'
              ? victimAgentId
              : whose === 'missing'
                ? 'agt_01ARZ3NDEKTSV4RRFFQ69G5FAV'
                : (await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'Own' } })).json().id;
          ownAgentId = value;
        } else if (name === 'taskId') {
          value =
            whose === 'foreign'
              ? victimTaskId
              : whose === 'missing'
                ? 'tsk_01ARZ3NDEKTSV4RRFFQ69G5FAV'
                : (
                    await t.inject({
                      method: 'POST',
                      url: `/v1/agents/${ownAgentId}/tasks`,
                      payload: { name: 'Own', instructions: 'Own.', schedule: { everySeconds: 3600 } },
                    })
                  ).json().id;
        } else if (name === 'keyId') {
          value =
            whose === 'foreign'
              ? victimKeyId
              : whose === 'missing'
                ? 'key_01ARZ3NDEKTSV4RRFFQ69G5FAV'
                : (await t.inject({ method: 'POST', url: '/v1/api-keys', payload: { name: 'own' } })).json().id;
        } else if (name === 'knowledgeBaseId') {
          value =
            whose === 'foreign'
              ? victimKnowledgeBaseId
              : whose === 'missing'
                ? 'kb_01ARZ3NDEKTSV4RRFFQ69G5FAV'
                : (await t.inject({ method: 'POST', url: '/v1/knowledge-bases', payload: { name: 'Own' } })).json().id;
          ownKnowledgeBaseId = value;
        } else if (name === 'runId') {
          const agentId = url.split('/')[3] as string;
          value =
            whose === 'foreign'
              ? victimRunId
              : whose === 'missing'
                ? 'run_01ARZ3NDEKTSV4RRFFQ69G5FAV'
                : await ownRun(agentId, route.path.endsWith('/cancel'));
        } else if (name === 'approvalId') {
          const agentId = url.split('/')[3] as string;
          value =
            whose === 'foreign'
              ? victimApprovalId
              : whose === 'missing'
                ? 'apr_01ARZ3NDEKTSV4RRFFQ69G5FAV'
                : await pendingApproval(agentId);
        } else if (name === 'documentId') {
          value =
            whose === 'foreign'
              ? victimDocumentId
              : whose === 'missing'
                ? 'doc_01ARZ3NDEKTSV4RRFFQ69G5FAV'
                : (
                    await t.inject({
                      method: 'POST',
                      url: `/v1/knowledge-bases/${ownKnowledgeBaseId}/documents`,
                      payload: { title: 'Own', content: 'own content' },
                    })
                  ).json().id;
        } else if (name === 'type') {
          // A platform type of the agent: its own agent gets an x entry that posts to the fake X API.
          value = 'x';
          if (whose === 'own') {
            const patched = await t.inject({
              method: 'PATCH',
              url: `/v1/agents/${ownAgentId}`,
              payload: {
                platforms: [
                  {
                    type: 'x',
                    settings: { answerMentions: 'none' },
                    secrets: { userAccessToken: probeX.userAccessToken },
                  },
                ],
              },
            });
            assert.equal(patched.statusCode, 200, patched.body);
          }
        } else if (name === 'version') {
          // Every agent has its version 1; whose it is follows from the agent id before it.
          value = '1';
        } else if (name === 'fileId') {
          value =
            whose === 'foreign'
              ? victimFileId
              : whose === 'missing'
                ? 'file_01ARZ3NDEKTSV4RRFFQ69G5FAV'
                : await newFile(
                    (await t.inject({ method: 'POST', url: '/v1/agents', payload: { name: 'Own' } })).json().id,
                  );
        } else if (name === 'datasetId') {
          value =
            whose === 'foreign'
              ? victimDatasetId
              : whose === 'missing'
                ? 'eds_01ARZ3NDEKTSV4RRFFQ69G5FAV'
                : await newDataset();
        } else if (name === 'evalId') {
          value =
            whose === 'foreign'
              ? victimEvalId
              : whose === 'missing'
                ? 'evl_01ARZ3NDEKTSV4RRFFQ69G5FAV'
                : await ownEval(url.split('/')[3] as string, route.path.endsWith('/cancel'));
        } else if (name === 'index') {
          // A model step of the run before it; its prompt is there once the run's last step is written (a flush).
          value = '1';
          if (whose === 'own') {
            const steps = url.slice(0, url.indexOf('/steps/')) + '/steps';
            await eventually(async () => {
              const listed = (await t.inject({ method: 'GET', url: steps })).json();
              return listed.data?.[0]?.model?.firstTokenMs != null ? listed : null;
            }, 'the run’s steps');
          }
        } else {
          throw new Error(`${route.label}: no resource is known for the path parameter ${name}`);
        }
        url = url.replace(`{${name}}`, value);
      }
      return url;
    }
    const ownResourceUrl = (route: SecurityCase) => urlFor(route, 'own');

    it('reads a published scope for every authenticated operation of the OpenAPI document', () => {
      assert.equal(casesError, null);
      assert.ok(routes.length >= knownOperations.length, `${routes.length} operations found`);
      for (const route of routes) {
        const security = document.paths[route.path][route.method.toLowerCase()].security;
        assert.deepEqual(security, [{ bearerAuth: route.scope === null ? [] : [route.scope] }], route.label);
      }
    });

    it('finds every operation known before, with the same scope', () => {
      const published = new Map(routes.map((route) => [route.label, route.scope]));
      for (const [label, scope] of knownOperations) {
        assert.ok(published.has(label), `${label} is missing from the OpenAPI document`);
        assert.equal(published.get(label), scope, label);
      }
    });

    it('knows how to fill every path parameter', () => {
      for (const route of routes) {
        for (const name of route.pathParameters)
          assert.ok(fillableParameters.includes(name), `${route.label}: ${name}`);
      }
    });

    for (const route of routes) {
      describe(route.label, () => {
        const request = (url: string, headers: Record<string, string>) =>
          t.app.inject({
            method: route.method,
            url: `${url}${route.query}`,
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
              scopes.filter((other) => other !== scope),
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

        if (route.pathParameters.length > 0) {
          it("answers another account's id exactly like a missing one (404)", async () => {
            const theirs = await urlFor(route, 'foreign');
            const missing = await urlFor(route, 'missing');
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
