import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { runToolCall, ToolCallAborted } from '../../src/conversation/tool-runner.js';
import type { Tool } from '../../src/plugins/plugin.js';
import type { Toolbox } from '../../src/plugins/toolsets.js';

/** One call of one tool within a reply's limits: what ends it, and what the reply is told. */
describe('a tool call', () => {
  const logger = pino({ level: 'silent' });
  const limits = { timeoutMs: 200, outputBytes: 1000 };
  const call = { type: 'tool-call' as const, toolCallId: 'call_1', toolName: 'wait', input: '{}' };
  /** A tool that waits until its signal aborts, as a careful tool would, counting its starts. */
  const waiting = () => {
    const runs = { started: 0 };
    const tool: Tool = {
      name: 'wait',
      description: 'Waits until stopped.',
      inputSchema: { type: 'object', properties: {} },
      execute: (_input, { abortSignal }) =>
        new Promise((_resolve, reject) => {
          runs.started += 1;
          abortSignal.addEventListener('abort', () => reject(new Error('stopped')));
        }),
    };
    const toolbox: Toolbox = { tools: new Map([['wait', tool]]), unavailable: [], approvals: new Map() };
    return { runs, toolbox };
  };

  it('is not started once the client has gone, and ends the reply as aborted', async () => {
    const { runs, toolbox } = waiting();
    const client = new AbortController();
    client.abort();
    await assert.rejects(runToolCall(toolbox, call, limits, client.signal, logger), (error: unknown) => {
      assert.ok(error instanceof ToolCallAborted);
      assert.match(error.call.error ?? '', /aborted before the tool ran/);
      return true;
    });
    assert.equal(runs.started, 0);
  });

  it('ends when the client goes away while it runs', async () => {
    const { runs, toolbox } = waiting();
    const client = new AbortController();
    const running = runToolCall(toolbox, call, limits, client.signal, logger);
    client.abort();
    await assert.rejects(running, ToolCallAborted);
    assert.equal(runs.started, 1);
  });

  it('ends at its time-out, which the model is told', async () => {
    const { toolbox } = waiting();
    const result = await runToolCall(toolbox, call, limits, new AbortController().signal, logger);
    assert.equal(result.error, 'The tool did not finish within 200 ms.');
  });
});
