import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { recordSecrets } from '../helpers/known-secrets.js';
import { startFakeWebhookReceiver, type FakeWebhookReceiver } from '../helpers/fake-webhook-receiver.js';
import { createTestApp, generousRateLimits, type TestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/wait.js';

/**
 * The API speaks with one voice: the same thing has one name and one shape in
 * every route, event and in the OpenAPI document. Former names stay readable
 * as deprecated aliases (see CHANGELOG, "One voice").
 */

/** RFC 3339 UTC with milliseconds, as the contract writes every time. */
const rfc3339Milliseconds = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The OpenAI-compatible door speaks OpenAI's own dialect (snake_case, Unix `created`), on purpose. */
const openAiPaths = new Set(['/v1/chat/completions', '/v1/models', '/v1/models/{model}']);

type Schema = Record<string, any>;

/** Every property of a schema tree, with where it was found; `$ref`s into components are followed once. */
function* properties(
  schema: unknown,
  where: string,
  components: Record<string, Schema>,
  seen = new Set<string>(),
): Generator<{ name: string; schema: Schema; where: string }> {
  if (schema === null || typeof schema !== 'object') return;
  const node = schema as Schema;
  if (typeof node.$ref === 'string') {
    const name = node.$ref.split('/').pop() as string;
    if (seen.has(name)) return;
    yield* properties(components[name], `${where} → ${name}`, components, new Set([...seen, name]));
    return;
  }
  if (node.properties && typeof node.properties === 'object') {
    for (const [name, value] of Object.entries(node.properties as Record<string, Schema>)) {
      yield { name, schema: value, where: `${where}.${name}` };
      yield* properties(value, `${where}.${name}`, components, seen);
    }
  }
  for (const key of ['items', 'additionalProperties']) yield* properties(node[key], where, components, seen);
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    for (const branch of (node[key] as unknown[] | undefined) ?? []) yield* properties(branch, where, components, seen);
  }
}

/** The response and webhook payload schemas of the document, each with a label. */
function* publishedShapes(document: Schema): Generator<{ label: string; path: string; schema: unknown }> {
  for (const [path, operations] of Object.entries(document.paths as Record<string, Schema>)) {
    for (const [method, operation] of Object.entries(operations)) {
      for (const [status, response] of Object.entries((operation.responses ?? {}) as Record<string, Schema>)) {
        for (const media of Object.values((response.content ?? {}) as Record<string, Schema>)) {
          yield { label: `${method.toUpperCase()} ${path} ${status}`, path, schema: media.schema };
        }
      }
    }
  }
  for (const [event, operations] of Object.entries((document.webhooks ?? {}) as Record<string, Schema>)) {
    for (const operation of Object.values(operations)) {
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      yield { label: `webhook ${event}`, path: `webhook ${event}`, schema };
    }
  }
}

const timesOf = (schema: Schema): Schema[] => (schema.anyOf as Schema[] | undefined) ?? [schema];

describe('one voice: names and shapes', () => {
  let t: TestApp;
  let document: Schema;
  before(async () => {
    t = await createTestApp({ env: { AGENTD_OUTBOUND_ALLOW_PRIVATE: 'true', AGENTD_RATE_LIMITS: generousRateLimits } });
    const response = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    assert.equal(response.statusCode, 200);
    document = response.json();
  });
  after(async () => t?.close());

  it('documents every time (`…At`, `timestamp`) the same way: an RFC 3339 date-time, null only where it may not be yet', () => {
    const undocumented: string[] = [];
    for (const shape of publishedShapes(document)) {
      if (openAiPaths.has(shape.path)) continue;
      for (const found of properties(shape.schema, shape.label, document.components.schemas)) {
        if (!/At$/.test(found.name) && found.name !== 'timestamp') continue;
        const branches = timesOf(found.schema).filter((branch) => branch.type !== 'null');
        if (!branches.every((branch) => branch.format === 'date-time')) undocumented.push(found.where);
      }
    }
    assert.deepEqual(undocumented, [], 'times without format: date-time');
  });

  it('names fields in camelCase outside the OpenAI-compatible door', () => {
    const snake: string[] = [];
    for (const shape of publishedShapes(document)) {
      if (openAiPaths.has(shape.path)) continue;
      for (const found of properties(shape.schema, shape.label, document.components.schemas)) {
        // Keyed by problem `code`s, which the contract spells in snake_case (`provider_error`).
        if (found.where.includes('.failuresByType.')) continue;
        if (/_/.test(found.name)) snake.push(found.where);
      }
    }
    assert.deepEqual(snake, []);
  });

  it('pages every paginated list with the same cursor fields, and page numbers only where the contract has them', () => {
    const pageNumbered = new Set(['/v1/agents', '/v1/webhooks', '/v1/knowledge-bases']);
    for (const [path, operations] of Object.entries(document.paths as Record<string, Schema>)) {
      const list = operations.get?.responses?.['200']?.content?.['application/json']?.schema;
      const pagination = list?.properties?.pagination;
      if (pagination === undefined) continue;
      const fields = Object.keys(pagination.properties).sort();
      const expected = pageNumbered.has(path)
        ? ['hasMore', 'limit', 'nextCursor', 'page', 'total', 'totalPages']
        : ['hasMore', 'limit', 'nextCursor'];
      assert.deepEqual(fields, expected, path);
      assert.equal(list.properties.data.type, 'array', path);
    }
  });

  it('writes the times of a run as it documents them', async () => {
    const agent = await t.newAgent();
    const sent = await t.inject({ method: 'POST', url: `/v1/agents/${agent.id}/messages`, payload: { text: 'hi' } });
    assert.equal(sent.statusCode, 200, sent.body);
    const run = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/runs/${sent.json().runId}` })).json();
    for (const field of ['createdAt', 'startedAt', 'finishedAt']) assert.match(run[field], rfc3339Milliseconds, field);
    assert.equal(run.dueAt, null);
  });

  it('filters runs by `taskId`, the name of the field, and still by `task`, its deprecated name', async () => {
    const agent = await t.newAgent();
    const task = (
      await t.inject({
        method: 'POST',
        url: `/v1/agents/${agent.id}/tasks`,
        payload: { name: 'Report', instructions: 'Report the weather.', schedule: { everySeconds: 3600 } },
      })
    ).json();
    const started = await t.inject({ method: 'POST', url: `/v1/agents/${agent.id}/tasks/${task.id}/run` });
    assert.equal(started.statusCode, 202, started.body);
    await t.inject({ method: 'POST', url: `/v1/agents/${agent.id}/messages`, payload: { text: 'not a task' } });

    const byTaskId = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/runs?taskId=${task.id}` });
    assert.equal(byTaskId.statusCode, 200, byTaskId.body);
    assert.deepEqual(
      byTaskId.json().data.map((run: { id: string }) => run.id),
      [started.json().id],
    );
    const byAlias = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/runs?task=${task.id}` });
    assert.deepEqual(byAlias.json().data, byTaskId.json().data);
    const both = await t.inject({
      method: 'GET',
      url: `/v1/agents/${agent.id}/runs?task=${task.id}&taskId=${task.id}`,
    });
    assert.deepEqual(both.json().data, byTaskId.json().data);

    const otherTask = 'tsk_01ARZ3NDEKTSV4RRFFQ69G5FAV';
    const conflict = await t.inject({
      method: 'GET',
      url: `/v1/agents/${agent.id}/runs?task=${otherTask}&taskId=${task.id}`,
    });
    assert.equal(conflict.statusCode, 400, conflict.body);
    assert.equal(conflict.json().code, 'validation_failed');
    assert.equal(conflict.json().errors[0].path, '/query/task');
    assert.match(conflict.json().detail, /task differs from taskId/);

    const parameters = document.paths['/v1/agents/{agentId}/runs'].get.parameters as Schema[];
    const alias = parameters.find((parameter) => parameter.name === 'task');
    assert.ok(parameters.some((parameter) => parameter.name === 'taskId'));
    assert.ok(alias?.schema.deprecated ?? alias?.deprecated, 'the alias is marked deprecated');
  });

  it('reports a platform entry with `status` and `statusReason`, as an agent or a document, and the former names alike', async () => {
    const agent = await t.newAgent({
      platforms: [
        { type: 'webhook', enabled: false, secrets: { signingSecret: 'whsec_b25lLXZvaWNlLXBsYXRmb3JtLTAx' } },
      ],
    });
    const response = await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/platforms` });
    assert.equal(response.statusCode, 200, response.body);
    const [entry] = response.json().data;
    assert.equal(entry.status, 'stopped');
    assert.equal(entry.statusReason, 'the platform is disabled');
    assert.equal(entry.state, entry.status, 'the deprecated name, same value');
    assert.equal(entry.reason, entry.statusReason, 'the deprecated name, same value');
    const documented =
      document.paths['/v1/agents/{agentId}/platforms'].get.responses['200'].content['application/json'].schema
        .properties.data.items.properties;
    assert.equal(documented.state.deprecated, true);
    assert.equal(documented.reason.deprecated, true);
    assert.equal(documented.status.deprecated, undefined);
  });

  describe('webhook payloads', () => {
    let receiver: FakeWebhookReceiver;
    let secret: string;
    before(async () => {
      receiver = await startFakeWebhookReceiver();
      const created = await t.inject({
        method: 'POST',
        url: '/v1/webhooks',
        payload: { url: receiver.url, events: ['message.completed', 'task.completed'] },
      });
      assert.equal(created.statusCode, 201, created.body);
      secret = created.json().secret;
      recordSecrets(secret);
    });
    after(async () => receiver?.close());

    const received = (type: string, agentId: string) =>
      eventually(
        async () =>
          receiver.received
            .map((request) => receiver.verify(request, secret))
            .find((payload) => payload.type === type && payload.data.agentId === agentId) ?? null,
        type,
      );

    it('counts the tool calls of `message.completed` in `toolCallCount`, not in a `toolCalls` of another shape', async () => {
      const agent = await t.newAgent();
      const sent = await t.inject({ method: 'POST', url: `/v1/agents/${agent.id}/messages`, payload: { text: 'hi' } });
      assert.deepEqual(sent.json().toolCalls, [], 'in the reply, toolCalls is the list of calls');
      const payload = await received('message.completed', agent.id);
      assert.equal(payload.data.toolCallCount, 0);
      assert.equal(payload.data.toolCalls, 0, 'the deprecated name, kept for receivers written against it');
      const documented = document.webhooks['message.completed'].post.requestBody.content['application/json'].schema;
      assert.equal(documented.properties.data.properties.toolCalls.deprecated, true);
    });

    it('times the end of a task run in `task.completed` as `finishedAt`, like the run', async () => {
      const agent = await t.newAgent();
      const task = (
        await t.inject({
          method: 'POST',
          url: `/v1/agents/${agent.id}/tasks`,
          payload: {
            name: 'Hooked',
            instructions: 'Say hello.',
            schedule: { everySeconds: 3600 },
            output: { type: 'webhook' },
          },
        })
      ).json();
      const started = await t.inject({ method: 'POST', url: `/v1/agents/${agent.id}/tasks/${task.id}/run` });
      assert.equal(started.statusCode, 202, started.body);
      const payload = await received('task.completed', agent.id);
      assert.match(payload.data.finishedAt, rfc3339Milliseconds);
      const [webhook] = (await t.inject({ method: 'GET', url: '/v1/webhooks' })).json().data;
      const deliveries = (await t.inject({ method: 'GET', url: `/v1/webhooks/${webhook.id}/deliveries` })).json().data;
      assert.ok(deliveries.length > 0);
      for (const delivery of deliveries) {
        assert.ok(['pending', 'succeeded'].includes(delivery.status), delivery.status);
        assert.equal(delivery.state, delivery.status, 'the deprecated name of a delivery’s status, same value');
      }
      assert.equal(payload.data.completedAt, payload.data.finishedAt, 'the deprecated name, same time');
      const run = (await t.inject({ method: 'GET', url: `/v1/agents/${agent.id}/runs/${payload.data.runId}` })).json();
      assert.ok(run.finishedAt <= payload.data.finishedAt, 'no earlier than the run it reports ended');
    });
  });
});
