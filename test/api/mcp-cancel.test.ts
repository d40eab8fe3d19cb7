import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AppError } from '../../src/errors.js';
import { newId } from '../../src/ids.js';
import type { ServiceContext } from '../../src/services/context.js';
import { cancelMcpCall, mcpCallKey, McpCallRegistry, type McpCallKey } from '../../src/services/mcp/mcp-calls.js';
import { backends, createTestApp, type TestAccount, type TestApp } from '../helpers/test-app.js';

/**
 * How an MCP `notifications/cancelled` finds its call: here first, then by
 * the run stored under the call's key, which any instance can ask to cancel.
 * A name that matches several calls cancels none.
 */
describe('MCP call keys and the registry of calls in progress', () => {
  it('names a call within its session, or without one within its API key', () => {
    const key = (sessionId: string, keyId: string, requestId: string | number) =>
      mcpCallKey(sessionId, keyId, requestId).local;
    assert.equal(key('mcps_a', 'key_1', 7), key('mcps_a', 'key_2', 7), 'a session is shared by its keys');
    assert.notEqual(key('mcps_a', 'key_1', 7), key('mcps_b', 'key_1', 7));
    assert.notEqual(key('', 'key_1', 7), key('', 'key_2', 7));
    assert.notEqual(key('', 'key_1', 7), key('', 'key_1', '7'), 'the number 7 is not the string "7"');
    assert.equal(
      mcpCallKey('mcps_a', 'key_1', 'x'.repeat(200)).stored,
      mcpCallKey('mcps_a', 'key_1', 'x'.repeat(200)).local,
    );
    assert.equal(mcpCallKey('mcps_a', 'key_1', 'x'.repeat(201)).stored, null, 'a longer id is not stored');
  });

  it('aborts the one call under a key, and none when several share it', () => {
    const calls = new McpCallRegistry();
    const key = mcpCallKey('', 'key_1', 1).local;
    const first = new AbortController();
    const second = new AbortController();
    const endFirst = calls.begin('acc_1', key, first);
    const endSecond = calls.begin('acc_1', key, second);
    assert.equal(calls.cancel('acc_1', key, 'stop'), 'ambiguous');
    assert.equal(first.signal.aborted || second.signal.aborted, false);
    assert.equal(calls.cancel('acc_2', key, 'stop'), 'absent', 'another account’s call is not found');
    endSecond();
    assert.equal(calls.cancel('acc_1', key, 'stop'), 'cancelled');
    assert.equal(first.signal.reason, 'stop');
    endFirst();
    assert.equal(calls.size, 0);
    assert.equal(calls.cancel('acc_1', key, 'stop'), 'absent');
  });
});

for (const backend of backends) {
  describe(`MCP cancellation by stored call key on ${backend.label}`, { skip: backend.skip }, () => {
    let t: TestApp;
    let agentId: string;
    before(async () => {
      t = await createTestApp({ backend: backend.name });
      agentId = (await t.newAgent()).id;
    });
    after(async () => t?.close());

    const contextOf = (caller: TestAccount, scopes = ['messages:send']): ServiceContext => ({
      deps: t.deps.services,
      actor: { accountId: caller.accountId, keyId: caller.keyId, scopes: new Set(scopes) },
      requestId: newId('request'),
    });

    /** A run of an MCP call in progress, as another request's server on this instance left it (not in its registry). */
    async function runningCall(callKey: McpCallKey, accountId = t.owner.accountId, agent = agentId): Promise<string> {
      const id = newId('run');
      const now = new Date().toISOString();
      await t.deps.services.repositories.runs.insert({
        id,
        account_id: accountId,
        agent_id: agent,
        trigger: 'mcp',
        task_id: null,
        due_at: null,
        status: 'running',
        background: 0,
        user_id: null,
        room_id: null,
        input: 'Talk slowly',
        message_id: null,
        // This instance beats for it, so its sweep leaves it alone.
        instance_id: t.deps.services.runs.instanceId,
        event_count: 0,
        created_at: now,
        started_at: now,
        call_key: callKey.stored,
      });
      return id;
    }

    const cancelRequestedAt = async (runId: string) =>
      (await t.deps.services.repositories.runs.findById(runId))?.cancel_requested_at ?? null;

    it('asks the run of the call it names to cancel, as POST …/runs/{id}/cancel does', async () => {
      const key = mcpCallKey(`mcps_${newId('request')}`, t.owner.keyId, 41);
      const runId = await runningCall(key);
      const outcome = await cancelMcpCall({
        ctx: contextOf(t.owner),
        calls: new McpCallRegistry(),
        callKey: key,
        reason: 'x',
      });
      assert.equal(outcome, 'run');
      assert.notEqual(await cancelRequestedAt(runId), null);
      const run = (await t.inject({ method: 'GET', url: `/v1/agents/${agentId}/runs/${runId}` })).json();
      assert.notEqual(run.cancelRequestedAt, null, 'the run shows the request');
    });

    it('cancels nothing when two calls without a session share their key and request id', async () => {
      const key = mcpCallKey('', t.owner.keyId, `same-${newId('request')}`);
      const runs = [await runningCall(key), await runningCall(key)];
      const outcome = await cancelMcpCall({
        ctx: contextOf(t.owner),
        calls: new McpCallRegistry(),
        callKey: key,
        reason: 'x',
      });
      assert.equal(outcome, 'ambiguous');
      for (const runId of runs) assert.equal(await cancelRequestedAt(runId), null);
    });

    it('never reaches another account’s call, and needs messages:send', async () => {
      const stranger = await t.newAccount();
      const strangerAgent = (
        await t.inject({ method: 'POST', url: '/v1/agents', as: stranger, payload: { name: 'Theirs' } })
      ).json().id as string;
      const key = mcpCallKey(`mcps_${newId('request')}`, stranger.keyId, 1);
      const runId = await runningCall(key, stranger.accountId, strangerAgent);
      const outcome = await cancelMcpCall({
        ctx: contextOf(t.owner),
        calls: new McpCallRegistry(),
        callKey: key,
        reason: 'x',
      });
      assert.equal(outcome, 'absent');
      const readOnly = await t.newKey(stranger.accountId, ['agents:read']);
      await assert.rejects(
        cancelMcpCall({
          ctx: contextOf(readOnly, ['agents:read']),
          calls: new McpCallRegistry(),
          callKey: key,
          reason: 'x',
        }),
        (error: unknown) => error instanceof AppError && error.code === 'insufficient_scope',
      );
      assert.equal(await cancelRequestedAt(runId), null);
    });
  });
}
