import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Found by the HTTP fuzzer: a free-form field nested thousands of levels deep
 * overflowed the stack after parsing and answered 500. Bodies nested past the
 * bound are now a 400 before anything walks them.
 */
const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

describe('deeply nested JSON bodies', () => {
  let testApp: TestApp;
  let agentId: string;

  before(async () => {
    testApp = await createTestApp();
    agentId = (await testApp.newAgent()).id;
  });
  after(() => testApp.close());

  function assertNestingRejected(response: { statusCode: number; headers: Record<string, unknown>; json(): any }) {
    assert.equal(response.statusCode, 400);
    assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
    const problem = response.json();
    assert.equal(problem.code, 'validation_failed');
    assert.deepEqual(
      problem.errors.map((error: { path: string }) => error.path),
      ['/body'],
    );
    assert.match(problem.detail, /levels deep/);
  }

  it('rejects a message whose context nests 10,000 levels deep', async () => {
    const response = await testApp.inject({
      method: 'POST',
      url: `/v1/agents/${agentId}/messages`,
      headers: { 'content-type': 'application/json' },
      payload: `{"text":"hi","context":${nested(10_000)}}`,
    });
    assertNestingRejected(response);
  });

  it('rejects an agent whose platform settings nest 10,000 levels deep', async () => {
    const response = await testApp.inject({
      method: 'POST',
      url: '/v1/agents',
      headers: { 'content-type': 'application/json' },
      payload: `{"name":"Deep","platforms":[{"type":"telegram","settings":${nested(10_000)}}]}`,
    });
    assertNestingRejected(response);
  });

  it('rejects a merge patch whose plugin config nests 10,000 levels deep', async () => {
    const response = await testApp.inject({
      method: 'PATCH',
      url: `/v1/agents/${agentId}`,
      headers: { 'content-type': 'application/merge-patch+json' },
      payload: `{"plugins":[{"name":"http","config":${nested(10_000)}}]}`,
    });
    assertNestingRejected(response);
  });

  it('still takes ordinary nesting, and brackets inside strings do not count', async () => {
    const message = await testApp.inject({
      method: 'POST',
      url: `/v1/agents/${agentId}/messages`,
      headers: { 'content-type': 'application/json' },
      payload: `{"text":"${'['.repeat(500)}","context":${nested(20)}}`,
    });
    assert.equal(message.statusCode, 200, message.body);
  });
});
