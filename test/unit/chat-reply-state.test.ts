import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyReplyEvent, type Entry, type ReplyEvent } from '../../web/src/views/chat/reply-state.js';

const empty: Entry = { key: 1, role: 'agent', text: '', tools: [], approvals: [], citations: [], streaming: true };
const replay = (events: ReplyEvent[]) => events.reduce(applyReplyEvent, empty);

const pending = {
  approvalId: 'apr_1',
  toolCallId: 'call_1',
  name: 'calculate',
  input: { expression: '6*7' },
  expiresAt: '2030-01-01T00:00:00.000Z',
};
const reply = {
  id: 'msg_1',
  runId: 'run_1',
  agentId: 'agt_1',
  userId: 'kim',
  roomId: null,
  text: '',
  finishReason: 'approval_required' as const,
  usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
  model: { provider: 'builtin', name: 'echo' },
  toolCalls: [],
  attachments: [],
  citations: [],
  latencyMs: 5,
  approvals: [pending],
  createdAt: '2030-01-01T00:00:00.000Z',
};

/** The dashboard's chat reads a streamed reply and a run's events with one reducer (web/src/views/chat/reply-state.ts). */
describe("the chat's reply state", () => {
  it('keeps the calls a paused reply waits on once, from its event and from the completed reply', () => {
    const entry = replay([
      { type: 'message.started', data: { ...reply, model: reply.model } },
      { type: 'tool.approval_requested', data: { id: 'msg_1', ...pending } },
      { type: 'message.completed', data: reply },
    ]);
    assert.equal(entry.runId, 'run_1');
    assert.equal(entry.finishReason, 'approval_required');
    assert.equal(entry.streaming, false);
    assert.deepEqual(entry.approvals, [pending]);
    assert.deepEqual(entry.tools, []);
  });

  it('follows a resumed run: the decided call, the answer, its citations; a takeover replaces the text so far', () => {
    const decided = {
      toolCallId: 'call_1',
      name: 'calculate',
      input: { expression: '6*7' },
      output: { result: '42' },
      durationMs: 3,
      approval: { approvalId: 'apr_1', status: 'approved' as const, reason: null },
    };
    const citation = { knowledgeBaseId: 'kb_1', documentId: 'doc_1', chunkId: 'chk_1', title: 'Fuel dock', score: 0.5 };
    const streamed = replay([
      { type: 'message.started', data: { ...reply, id: 'msg_2', runId: 'run_2' } },
      { type: 'tool.called', data: { id: 'msg_2', toolCallId: 'call_1', name: 'calculate', input: decided.input } },
      { type: 'tool.completed', data: { id: 'msg_2', ...decided } },
      { type: 'message.delta', data: { id: 'msg_2', text: 'calculate ret' } },
      { type: 'run.resumed', data: { runId: 'run_2', id: 'msg_2', text: 'calc', completedSteps: 1, takeovers: 1 } },
    ]);
    assert.equal(streamed.text, 'calc');
    assert.deepEqual(streamed.tools, [decided]);
    const ended = applyReplyEvent(streamed, {
      type: 'message.completed',
      data: {
        ...reply,
        id: 'msg_2',
        runId: 'run_2',
        text: 'calculate returned 42',
        finishReason: 'stop',
        approvals: undefined,
        toolCalls: [decided],
        citations: [citation],
      },
    });
    assert.deepEqual(
      [ended.text, ended.finishReason, ended.runId, ended.citations, ended.approvals],
      ['calculate returned 42', 'stop', 'run_2', [citation], []],
    );
  });

  it('says why a reply failed, and reads past an event it does not know', () => {
    const failed = replay([
      { type: 'message.failed', data: { id: 'msg_1', error: { detail: 'The provider failed.' } as never } },
    ]);
    assert.deepEqual([failed.problem, failed.finishReason, failed.streaming], ['The provider failed.', 'error', false]);
    assert.equal(applyReplyEvent(empty, { type: 'message.retried', data: {} } as never), empty);
  });
});
