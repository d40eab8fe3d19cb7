import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCampaign, type CampaignResult } from './campaign.js';
import { startFuzzTarget, type FuzzTarget } from './fuzz-target.js';
import { invariantViolation } from './invariants.js';
import { fetchOperations, type Operation } from './openapi-operations.js';
import { anyRequest } from './request-arbitrary.js';

/**
 * The short, seeded fuzzing pass run by `npm test`; `npm run fuzz` runs the
 * long one. A failure prints the arguments that send the same request again.
 */
const seed = 20_261_129;
// About 140 requests per operation (70 of them): enough for each to get past validation at least once.
const requests = 10_000;

describe('every route, fuzzed over HTTP', () => {
  let target: FuzzTarget;
  let operations: Operation[];
  let result: CampaignResult;

  before(async () => {
    target = await startFuzzTarget();
    operations = await fetchOperations(target.server.url);
    result = await runCampaign({ target, arbitrary: anyRequest(operations), seed, requests, concurrency: 8 });
  });
  after(() => target?.stop());

  it('answers every request below 500, with problem+json for every error', () => {
    const report = result.failures
      .map(
        (failure) =>
          `${failure.operation}: ${failure.reason}\n  npm run fuzz -- ${failure.replay}\n  ${failure.request}`,
      )
      .join('\n');
    assert.equal(result.crashed, null);
    assert.equal(result.sent, requests);
    assert.equal(result.violations, 0, report);
  });

  it('is still serving afterwards', async () => {
    const response = await fetch(`${target.server.url}/healthz`);
    assert.equal(response.status, 200);
  });

  it('reached every operation of the OpenAPI document past validation, and its errors', () => {
    const reached = operations
      .map((operation) => operation.label)
      // Platform inbound routes answer 2xx only to a request signed with an agent's platform secret, which no
      // generated request has; they are still fuzzed for errors above (test/api/platforms.test.ts signs them).
      .filter((label) => !label.startsWith('POST /v1/platforms/{type}/'))
      // A run can be cancelled once, while it runs, and the fuzzed agents' runs have ended: cancel is fuzzed for
      // its errors here (409 for an ended run among them); test/api/runs.test.ts cancels running runs.
      .filter((label) => label !== 'POST /v1/agents/{agentId}/runs/{runId}/cancel')
      // A post needs an enabled platform entry whose platform takes it; fuzzed agents have none that reaches one
      // (this target runs no fake platform): fuzzed for its errors here, posted in test/api/social-platforms.test.ts
      // and the security suite.
      .filter((label) => label !== 'POST /v1/agents/{agentId}/platforms/{type}/posts')
      // Likewise an approval is decided once: deciding is fuzzed for its errors here (409 once decided);
      // test/api/approvals.test.ts decides them.
      .filter((label) => label !== 'POST /v1/agents/{agentId}/approvals/{approvalId}')
      // An eval, likewise, is cancelled once while it runs, and the fuzzed agents' evals (one case, the builtin
      // model) have ended: fuzzed for its errors here; test/api/evals.test.ts cancels a running one.
      .filter((label) => label !== 'POST /v1/agents/{agentId}/evals/{evalId}/cancel')
      // Known gap: with this seed no request adds or lists the documents of a live own base (it is deleted and
      // replaced many times a run); they are fuzzed for errors above and succeed in test/api/knowledge-bases.test.ts.
      .filter(
        (label) =>
          label !== 'POST /v1/knowledge-bases/{knowledgeBaseId}/documents' &&
          label !== 'GET /v1/knowledge-bases/{knowledgeBaseId}/documents',
      )
      .filter((label) => !result.successesByOperation[label]);
    assert.deepEqual(reached, [], 'operations that never answered below 300');
    for (const status of ['400', '401', '403', '404', '413', '415']) {
      assert.ok((result.byStatus[status] ?? 0) > 0, `no ${status} among ${JSON.stringify(result.byStatus)}`);
    }
  });
});

describe('the invariant the fuzzer checks', () => {
  const response = (status: number, type: string, body: unknown) => ({
    kind: 'response' as const,
    response: { status, headers: { 'content-type': type }, body: Buffer.from(JSON.stringify(body)) },
  });
  const problem = { status: 400, code: 'validation_failed', requestId: 'req_1' };

  it('accepts a problem+json error and rejects any other error body', () => {
    assert.equal(invariantViolation('GET', response(400, 'application/problem+json; charset=utf-8', problem)), null);
    assert.match(invariantViolation('GET', response(400, 'application/json', problem)) ?? '', /content type/);
    assert.match(
      invariantViolation('GET', response(400, 'application/problem+json', { ...problem, requestId: undefined })) ?? '',
      /requestId/,
    );
  });

  it('rejects a 500 and a missing answer', () => {
    const internal = { status: 500, code: 'internal', requestId: 'req_1' };
    assert.match(invariantViolation('GET', response(500, 'application/problem+json', internal)) ?? '', /500/);
    assert.match(invariantViolation('GET', { kind: 'no-response', reason: 'closed' }) ?? '', /no answer/);
  });
});
