import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeOtlpReceiver, type FakeOtlpReceiver, type ReceivedSpan } from '../helpers/fake-otlp-receiver.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/wait.js';

/**
 * With OTEL_EXPORTER_OTLP_ENDPOINT set, a message yields one trace: the
 * request's server span, the statements it ran and the model call, sent over
 * OTLP/HTTP to a collector (here a fake one on loopback).
 */
describe('tracing with OpenTelemetry', () => {
  let receiver: FakeOtlpReceiver;
  let t: TestApp;
  before(async () => {
    receiver = await startFakeOtlpReceiver();
    t = await createTestApp({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: '50' },
    });
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('puts the HTTP request, its database statements and the model call of a message in one trace', async () => {
    const agent = await t.newAgent({ name: 'Traced', system: 'private-system-prompt-4417' });
    const prompt = 'confidential-prompt-text-8812';
    const sent = await t.inject({
      method: 'POST',
      url: `/v1/agents/${agent.id}/messages`,
      payload: { text: prompt, userId: 'traced-user' },
    });
    assert.equal(sent.statusCode, 200);

    const trace = await eventually(async () => {
      const server = receiver
        .spans()
        .find((span) => span.name === 'POST /v1/agents/:agentId/messages' && span.kind === 2);
      if (server === undefined) return null;
      const inTrace = receiver.spans().filter((span) => span.traceId === server.traceId);
      const model = inTrace.find((span) => span.name.startsWith('chat '));
      const inserts = (table: string) =>
        inTrace.find(
          (span) =>
            span.attributes['db.operation.name'] === 'insert' &&
            String(span.attributes['db.query.text']).startsWith(`insert into "${table}"`),
        );
      const insert = inserts('messages');
      const runInsert = inserts('runs');
      return model && insert && runInsert ? { server, inTrace, model, insert, runInsert } : null;
    }, 'the spans of the message');

    const { server, inTrace, model, insert, runInsert } = trace;
    assert.equal(server.parentSpanId, null, 'the request span is the root');
    assert.equal(server.attributes['http.request.method'], 'POST');
    assert.equal(server.attributes['http.route'], '/v1/agents/:agentId/messages');
    assert.equal(server.attributes['http.response.status_code'], 200);

    const byId = new Map(inTrace.map((span) => [span.spanId, span]));
    const descendsFromServer = (span: ReceivedSpan) => {
      for (let current: ReceivedSpan | undefined = span; current; current = byId.get(current.parentSpanId ?? '')) {
        if (current.spanId === server.spanId) return true;
      }
      return false;
    };
    assert.ok(descendsFromServer(model), 'the model span belongs to the request');
    assert.ok(descendsFromServer(insert), 'the database span belongs to the request');
    assert.ok(descendsFromServer(runInsert), 'so does the record of the run the reply is');

    assert.equal(model.name, 'chat echo');
    assert.equal(model.attributes['gen_ai.system'], 'builtin');
    assert.equal(model.attributes['gen_ai.request.model'], 'echo');
    assert.equal(model.attributes['gen_ai.usage.input_tokens'], sent.json().usage.inputTokens);
    assert.equal(model.attributes['gen_ai.usage.output_tokens'], sent.json().usage.outputTokens);
    assert.equal(insert.attributes['db.system.name'], 'sqlite');
    assert.match(String(insert.attributes['db.query.text']), /insert into "messages"/);

    const everything = receiver.rawBodies().join('\n');
    for (const secret of [prompt, 'private-system-prompt-4417', 'traced-user', t.owner.key, sent.json().text]) {
      assert.ok(!everything.includes(secret), `spans do not carry ${secret.slice(0, 12)}…`);
    }
  });

  it("makes each step of a run a span: the model calls and the tool calls, in the request's trace", async () => {
    const agent = await t.newAgent({ name: 'Tooled', plugins: [{ name: 'math' }] });
    const sent = await t.inject({
      method: 'POST',
      url: `/v1/agents/${agent.id}/messages`,
      payload: { text: '/tool calculate {"expression": "6*7"}' },
    });
    assert.equal(sent.statusCode, 200);
    const runId = sent.json().runId as string;
    const { tool, models, server } = await eventually(async () => {
      const tool = receiver.spans().find((span) => span.attributes['gen_ai.conversation.id'] === runId);
      if (tool === undefined) return null;
      const inTrace = receiver.spans().filter((span) => span.traceId === tool.traceId);
      const models = inTrace.filter((span) => span.name.startsWith('chat '));
      const server = inTrace.find((span) => span.kind === 2);
      return models.length === 2 && server ? { tool, models, server } : null;
    }, 'the spans of the tool call');
    assert.equal(tool.name, 'execute_tool calculate');
    assert.equal(tool.attributes['gen_ai.operation.name'], 'execute_tool');
    assert.equal(tool.attributes['gen_ai.tool.name'], 'calculate');
    assert.equal(tool.attributes['gen_ai.tool.call.id'], sent.json().toolCalls[0].toolCallId);
    assert.equal(tool.parentSpanId, server.spanId, 'a step of the request');
    const time = (span: ReceivedSpan, edge: 'startTimeUnixNano' | 'endTimeUnixNano') =>
      BigInt(String((span.raw as Record<string, unknown>)[edge]));
    const [first, second] = models.sort((a, b) =>
      time(a, 'startTimeUnixNano') < time(b, 'startTimeUnixNano') ? -1 : 1,
    );
    assert.ok(time(first!, 'endTimeUnixNano') <= time(tool, 'startTimeUnixNano'), 'the model asked, then the tool ran');
    assert.ok(time(tool, 'endTimeUnixNano') <= time(second!, 'startTimeUnixNano'), 'then the model was asked again');
    assert.ok(!receiver.rawBodies().join('\n').includes('6*7'), 'the tool input is not recorded');
  });
});
