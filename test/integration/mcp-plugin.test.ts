import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import { systemClock } from '../../src/clock.js';
import { createOutboundFetch } from '../../src/outbound/outbound-fetch.js';
import { mcpPlugin } from '../../src/plugins/mcp/index.js';
import { ToolError, type PluginContext, type PluginInstance, type Tool } from '../../src/plugins/plugin.js';
import { startFakeMcpServer, type FakeMcpServer } from '../helpers/fake-mcp-server.js';
import { captureLog } from '../helpers/log-capture.js';
import { startLoopbackHttpServer } from '../helpers/loopback-http-server.js';
import { unusedPort } from '../helpers/network.js';
import { eventually } from '../helpers/wait.js';
import { unusedPluginServices } from '../helpers/plugin-context.js';

/**
 * The `mcp` plugin against a real MCP server (the SDK's, on loopback): the
 * tools the model is given, what reaches the server, and how a server that
 * goes away is reported to the model and picked up again.
 */

const secretToken = 'Bearer mcp-secret-token-4242';

let log = captureLog();

function pluginContext(): PluginContext {
  return {
    agentId: 'agt_test',
    accountId: 'acc_test',
    fetch: globalThis.fetch,
    searchKnowledge: async () => [],
    clock: systemClock,
    logger: log.logger,
    ...unusedPluginServices,
  };
}

function call(tool: Tool, input: unknown, abortSignal = new AbortController().signal) {
  return tool.execute(input, { abortSignal });
}

function toolNamed(instance: PluginInstance, name: string): Tool {
  const tool = instance.tools.find((candidate) => candidate.name === name);
  assert.ok(tool, `expected a tool named ${name}, got ${instance.tools.map((t) => t.name).join(', ')}`);
  return tool;
}

async function rejectsWithToolError(promise: Promise<unknown>, pattern: RegExp): Promise<ToolError> {
  const error = await promise.then(
    () => assert.fail('expected the call to fail'),
    (reason: unknown) => reason,
  );
  assert.ok(error instanceof ToolError, `expected a ToolError, got ${String(error)}`);
  assert.match(error.message, pattern);
  assert.ok(!error.message.includes(secretToken), 'the message must not carry the secret header');
  return error;
}

describe('the mcp plugin', () => {
  let server: FakeMcpServer;
  let instance: PluginInstance | undefined;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  before(() => process.on('unhandledRejection', onUnhandled));
  after(() => process.off('unhandledRejection', onUnhandled));

  beforeEach(async () => {
    log = captureLog();
    server = await startFakeMcpServer();
  });

  afterEach(async () => {
    await instance?.close?.();
    instance = undefined;
    await server.close();
    assert.deepEqual(unhandled, [], 'no promise may be left rejected and unhandled');
    assert.ok(!log.text().includes(secretToken), 'the secret header is never logged');
  });

  function open(
    config: Record<string, unknown> = {},
    secrets: Record<string, string> = { Authorization: secretToken },
  ) {
    return mcpPlugin.open({ url: server.url, ...config }, secrets, pluginContext());
  }

  it('gives the model the server’s tools under the prefix, with their descriptions and input schemas', async () => {
    instance = await open({ prefix: 'dictionary' });
    assert.deepEqual(instance.tools.map((tool) => tool.name).sort(), ['dictionary_add', 'dictionary_lookup_word']);
    const lookup = toolNamed(instance, 'dictionary_lookup_word');
    assert.equal(lookup.description, 'Looks up the definition of an English word.');
    assert.equal(lookup.inputSchema.type, 'object');
    assert.deepEqual(Object.keys(lookup.inputSchema.properties as object), ['word']);
  });

  it('uses the prefix mcp when none is given', async () => {
    instance = await open();
    assert.deepEqual(instance.tools.map((tool) => tool.name).sort(), ['mcp_add', 'mcp_lookup_word']);
  });

  it('hides the tools left out of the allow-list', async () => {
    instance = await open({ tools: ['lookup_word'] });
    assert.deepEqual(
      instance.tools.map((tool) => tool.name),
      ['mcp_lookup_word'],
    );
  });

  it('returns the result of a call, which the server received with the secret header', async () => {
    instance = await open();
    const definition = await call(toolNamed(instance, 'mcp_lookup_word'), { word: 'ephemeral' });
    assert.equal(definition, 'ephemeral: Lasting for a very short time.');
    const sum = await call(toolNamed(instance, 'mcp_add'), { a: 2, b: 40 });
    assert.deepEqual(sum, { sum: 42 }, 'structured content is preferred to the text');

    assert.deepEqual(
      server.calls.map(({ tool, arguments: args }) => ({ tool, args })),
      [
        { tool: 'lookup_word', args: { word: 'ephemeral' } },
        { tool: 'add', args: { a: 2, b: 40 } },
      ],
    );
    for (const recorded of server.calls) assert.equal(recorded.headers.authorization, secretToken);
    assert.equal(server.sessionsOpened.length, 1, 'calls share the connection opened with the instance');
  });

  it('reports a result marked as an error as a ToolError with the server’s text', async () => {
    instance = await open();
    await rejectsWithToolError(
      call(toolNamed(instance, 'mcp_lookup_word'), { word: 'zyzzyva' }),
      /lookup_word failed: No definition found for "zyzzyva"/,
    );
  });

  it('reports a stopped server as a readable ToolError, then uses it again once it is back', async () => {
    instance = await open();
    const add = toolNamed(instance, 'mcp_add');
    assert.deepEqual(await call(add, { a: 1, b: 1 }), { sum: 2 });

    await server.close();
    await rejectsWithToolError(call(add, { a: 1, b: 2 }), /^The MCP server at http:\/\/127\.0\.0\.1:\d+\/mcp .+/);

    await server.restart();
    assert.deepEqual(await call(add, { a: 1, b: 3 }), { sum: 4 });
    assert.equal(server.sessionsOpened.length, 2, 'a new session is started after the failure');
  });

  it('starts a new session when a restarted server no longer knows the old one', async () => {
    instance = await open();
    const add = toolNamed(instance, 'mcp_add');
    await server.forgetSessions();
    assert.deepEqual(await call(add, { a: 20, b: 22 }), { sum: 42 });
    assert.equal(server.sessionsOpened.length, 2);
    assert.equal(server.calls.length, 1, 'the call ran once');
  });

  it('fails a call the server does not answer within timeoutMs', async () => {
    instance = await open({ timeoutMs: 300 });
    const release = server.holdCalls();
    try {
      await rejectsWithToolError(call(toolNamed(instance, 'mcp_add'), { a: 1, b: 2 }), /did not answer within 300 ms/);
    } finally {
      release();
    }
  });

  it('stops waiting when the call is aborted', async () => {
    instance = await open();
    const release = server.holdCalls();
    const controller = new AbortController();
    try {
      const pending = call(toolNamed(instance, 'mcp_add'), { a: 1, b: 2 }, controller.signal);
      await eventually(async () => (server.calls.length === 1 ? true : null), 'the call to reach the server');
      controller.abort();
      await assert.rejects(pending);
    } finally {
      release();
    }
  });

  it('leaves no listener on a reply’s signal shared by many calls', async () => {
    instance = await open();
    const add = toolNamed(instance, 'mcp_add');
    const replySignal = new AbortController().signal;
    for (let index = 0; index < 15; index += 1) await call(add, { a: index, b: 1 }, replySignal);
    assert.equal(getEventListeners(replySignal, 'abort').length, 0);
  });

  it('ends its session on the server when closed', async () => {
    instance = await open();
    const [sessionId] = server.sessionsOpened;
    await instance.close?.();
    instance = undefined;
    assert.deepEqual(server.sessionsEnded, [sessionId]);
    const ending = server.requests.find((request) => request.method === 'DELETE');
    assert.equal(ending?.headers.authorization, secretToken);
  });

  it('a cross-origin redirect carries no secret header: an address that sends agentd to another origin passes none on', async () => {
    const secrets = { Authorization: secretToken, 'X-Api-Key': 'mcp-key-93f1c2e8' };
    // The entry's address redirects every request to the MCP server on another port: another origin.
    const redirecting = await startLoopbackHttpServer((_request, response) => {
      response.writeHead(307, { location: server.url });
      response.end();
    });
    try {
      // The core's client, which follows redirects itself: the rule for every plugin is its own.
      const context = { ...pluginContext(), fetch: createOutboundFetch({ allowPrivateAddresses: true }) };
      instance = await mcpPlugin.open({ url: `${redirecting.origin}/mcp` }, secrets, context).catch(() => undefined);
      assert.ok(redirecting.received.length > 0, 'the entry’s address was asked');
      assert.equal(redirecting.received[0]!.headers['x-api-key'], 'mcp-key-93f1c2e8', 'and it got the headers');
      for (const request of server.requests) {
        assert.equal(request.headers.authorization, undefined);
        assert.equal(request.headers['x-api-key'], undefined);
      }
    } finally {
      await redirecting.close();
    }
  });

  it('fails to open with a readable message when the server cannot be reached', async () => {
    const port = await unusedPort();
    await assert.rejects(
      mcpPlugin.open({ url: `http://127.0.0.1:${port}/mcp` }, { Authorization: secretToken }, pluginContext()),
      (error: Error) => {
        assert.equal(error.message, `The MCP server at http://127.0.0.1:${port}/mcp refused the connection`);
        return true;
      },
    );
  });

  it('fails to open with a readable message when the server refuses the address', async () => {
    await assert.rejects(
      mcpPlugin.open({ url: server.url.replace('/mcp', '/elsewhere') }, {}, pluginContext()),
      /^Error: The MCP server at http:\/\/127\.0\.0\.1:\d+\/elsewhere answered HTTP 404/,
    );
  });
});

describe('the mcp plugin’s config schema', () => {
  const valid = { url: 'https://tools.example.com/mcp' };

  it('accepts an http or https address with the defaults left out', () => {
    assert.ok(Value.Check(mcpPlugin.configSchema, valid));
    assert.ok(
      Value.Check(mcpPlugin.configSchema, { url: 'http://127.0.0.1:8080/mcp', prefix: 'search', tools: ['add'] }),
    );
  });

  it('fills in the prefix and time-out', () => {
    assert.deepEqual(Value.Default(mcpPlugin.configSchema, { ...valid }), {
      ...valid,
      prefix: 'mcp',
      timeoutMs: 15_000,
    });
  });

  for (const prefix of ['', '1tools', 'with-dash', 'with space', 'a'.repeat(21)]) {
    it(`rejects the prefix ${JSON.stringify(prefix)}`, () => {
      const errors = [...Value.Errors(mcpPlugin.configSchema, { ...valid, prefix })];
      assert.deepEqual(
        errors.map((error) => error.path),
        ['/prefix'],
      );
    });
  }

  for (const url of ['ftp://tools.example.com/mcp', 'tools.example.com/mcp', 'http://', 'javascript:alert(1)']) {
    it(`rejects the address ${url}`, () => {
      assert.equal(Value.Check(mcpPlugin.configSchema, { url }), false);
    });
  }

  it('rejects unknown fields and a secret that is not a string', () => {
    assert.equal(Value.Check(mcpPlugin.configSchema, { ...valid, headers: {} }), false);
    assert.ok(Value.Check(mcpPlugin.secretsSchema, { Authorization: 'Bearer x' }));
    assert.equal(Value.Check(mcpPlugin.secretsSchema, { Authorization: 42 }), false);
  });
});
