import assert from 'node:assert/strict';
import type http from 'node:http';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import type { HostResolver } from '../../src/outbound/guarded-lookup.js';
import { createOutboundFetch } from '../../src/outbound/outbound-fetch.js';
import type { HttpPluginConfig } from '../../src/plugins/http/config.js';
import type { FetchUrlResult } from '../../src/plugins/http/fetch-url-tool.js';
import { httpPlugin } from '../../src/plugins/http/http-plugin.js';
import { ToolError, type FetchFunction, type Tool } from '../../src/plugins/plugin.js';
import { startLoopbackHttpServer, type LoopbackHttpServer } from '../helpers/loopback-http-server.js';
import { unusedPluginServices } from '../helpers/plugin-context.js';

const page = `<!doctype html><html><head><title>Fruit</title><style>p { color: red }</style>
<script>var token = "do-not-show";</script></head>
<body><h1>Apples</h1><p>Apples are <b>sweet</b>. See <a href="https://fruit.example/pears">pears</a>.</p>
<img src="apple.png" alt="an apple"></body></html>`;

const defaults: HttpPluginConfig = { timeoutMs: 10_000, maxResponseBytes: 1_048_576 };
const failingResolver: HostResolver = async (hostname) => {
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

async function fetchUrlTool(
  config: HttpPluginConfig,
  fetch: FetchFunction,
  secrets: Record<string, string> = {},
): Promise<Tool> {
  const instance = await httpPlugin.open(config, secrets, {
    agentId: 'agt_test',
    accountId: 'acc_test',
    fetch,
    searchKnowledge: async () => [],
    clock: { now: () => Date.now() },
    logger: pino({ level: 'silent' }),
    ...unusedPluginServices,
  });
  assert.deepEqual(
    instance.tools.map((tool) => tool.name),
    ['fetch_url'],
  );
  return instance.tools[0]!;
}

function call(tool: Tool, input: unknown, abortSignal = new AbortController().signal): Promise<FetchUrlResult> {
  return tool.execute(input, { abortSignal }) as Promise<FetchUrlResult>;
}

async function toolError(result: Promise<unknown>): Promise<string> {
  try {
    await result;
  } catch (error) {
    assert.ok(error instanceof ToolError, `expected a ToolError, got ${String(error)}`);
    return error.message;
  }
  assert.fail('expected a ToolError');
}

describe('the http plugin’s fetch_url tool', () => {
  const loopbackAllowed = createOutboundFetch({ allowPrivateAddresses: true });
  let server: LoopbackHttpServer;
  const endless: http.ServerResponse[] = [];

  before(async () => {
    server = await startLoopbackHttpServer((request, response) => {
      const url = new URL(request.path, 'http://x');
      switch (url.pathname) {
        case '/page':
          response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          response.end(page);
          return;
        case '/data':
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ fruit: ['apple', 'pear'], count: 2 }, null, 4));
          return;
        case '/notes':
          response.writeHead(200, { 'content-type': 'text/plain' });
          response.end('  plain notes\nsecond line');
          return;
        case '/echo':
          response.writeHead(201, { 'content-type': 'application/json' });
          response.end(
            JSON.stringify({ method: request.method, body: request.body, type: request.headers['content-type'] }),
          );
          return;
        case '/image':
          response.writeHead(200, { 'content-type': 'image/png' });
          response.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
          return;
        case '/endless': {
          // Text for as long as anyone reads: a reader without a cap would never finish.
          response.writeHead(200, { 'content-type': 'text/plain' });
          endless.push(response);
          const line = Buffer.alloc(1024, 'a');
          const more = () => {
            while (!response.destroyed && response.write(line));
            if (!response.destroyed) response.once('drain', more);
          };
          more();
          return;
        }
        case '/silent':
          // Headers promised, nothing sent: only the time cap ends the call.
          response.flushHeaders();
          endless.push(response);
          return;
        case '/redirect':
          response.writeHead(302, { location: url.searchParams.get('to') ?? '/page' });
          response.end();
          return;
        default:
          response.writeHead(404, { 'content-type': 'text/plain' });
          response.end('not found');
      }
    });
  });
  after(async () => {
    for (const response of endless) response.destroy();
    await server.close();
  });

  it('reads an HTML page as text, keeping links and dropping scripts, styles and images', async () => {
    const tool = await fetchUrlTool(defaults, loopbackAllowed);
    const result = await call(tool, { url: `${server.origin}/page` });
    assert.equal(result.status, 200);
    assert.equal(result.contentType, 'text/html');
    assert.equal(result.url, `${server.origin}/page`);
    assert.equal(result.truncated, false);
    assert.match(result.text, /APPLES/);
    assert.match(result.text, /Apples are sweet\. See pears \(https:\/\/fruit\.example\/pears\)\./);
    assert.ok(!result.text.includes('do-not-show'), result.text);
    assert.ok(!result.text.includes('color'), result.text);
    assert.ok(!result.text.includes('apple.png'), result.text);
  });

  it('gives JSON as compact JSON and other text as it is', async () => {
    const tool = await fetchUrlTool(defaults, loopbackAllowed);
    const json = await call(tool, { url: `${server.origin}/data` });
    assert.equal(json.text, '{"fruit":["apple","pear"],"count":2}');
    const notes = await call(tool, { url: `${server.origin}/notes` });
    assert.equal(notes.text, '  plain notes\nsecond line');
    const missing = await call(tool, { url: `${server.origin}/nowhere` });
    assert.deepEqual([missing.status, missing.text], [404, 'not found']);
  });

  it('sends a POST with its body and headers', async () => {
    const tool = await fetchUrlTool(defaults, loopbackAllowed);
    const result = await call(tool, {
      url: `${server.origin}/echo`,
      method: 'POST',
      body: '{"question":"ripe?"}',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(result.status, 201);
    assert.deepEqual(JSON.parse(result.text), {
      method: 'POST',
      body: '{"question":"ripe?"}',
      type: 'application/json',
    });
  });

  it('refuses content that is not text, and arguments that make no sense', async () => {
    const tool = await fetchUrlTool(defaults, loopbackAllowed);
    assert.match(await toolError(call(tool, { url: `${server.origin}/image` })), /image\/png, which is not text/);
    assert.match(await toolError(call(tool, { url: 'file:///etc/passwd' })), /Only http:\/\/ and https:\/\//);
    assert.match(await toolError(call(tool, { url: 'not a url' })), /not an absolute URL/);
    assert.match(
      await toolError(call(tool, { url: `${server.origin}/page`, method: 'DELETE' })),
      /Invalid arguments: \/method/,
    );
    assert.match(
      await toolError(call(tool, { url: `${server.origin}/page`, body: 'x' })),
      /only be sent with method POST/,
    );
  });

  it('stops reading at the size cap and says the text is truncated', async () => {
    const tool = await fetchUrlTool({ ...defaults, maxResponseBytes: 4096 }, loopbackAllowed);
    const result = await call(tool, { url: `${server.origin}/endless` });
    assert.equal(result.truncated, true);
    assert.equal(result.text, 'a'.repeat(4096));
  });

  it('gives up on a silent server at the time cap', async () => {
    const tool = await fetchUrlTool({ ...defaults, timeoutMs: 1000 }, loopbackAllowed);
    const started = Date.now();
    const message = await toolError(call(tool, { url: `${server.origin}/silent` }));
    assert.match(message, /did not answer within 1000 ms/);
    assert.ok(Date.now() - started < 5000, 'ended by the time cap, not by something later');
  });

  it('ends when the call is aborted, with the call’s own reason', async () => {
    const tool = await fetchUrlTool(defaults, loopbackAllowed);
    const caller = new AbortController();
    const pending = call(tool, { url: `${server.origin}/silent` }, caller.signal);
    caller.abort(new Error('reply cut'));
    await assert.rejects(pending, /reply cut/);
  });

  it('holds every hop to allowedHosts', async () => {
    const tool = await fetchUrlTool({ ...defaults, allowedHosts: ['localhost'] }, loopbackAllowed);
    const listed = `http://localhost:${server.port}`;
    const allowed = await call(tool, { url: `${listed}/data` });
    assert.equal(allowed.status, 200);
    assert.match(await toolError(call(tool, { url: `${server.origin}/data` })), /127\.0\.0\.1 is not among the hosts/);
    const before = server.received.length;
    const viaRedirect = `${listed}/redirect?to=${encodeURIComponent(`${server.origin}/page`)}`;
    assert.match(await toolError(call(tool, { url: viaRedirect })), /127\.0\.0\.1 is not among the hosts/);
    assert.equal(server.received.length, before + 1, 'the redirect was asked for, its target never');
    const staying = await call(tool, { url: `${listed}/redirect?to=/data` });
    assert.equal(staying.url, `${listed}/data`);
  });

  it('secret headers are bound to their origin: not another port, not plain http, not by a redirect', async () => {
    const secrets = { apiKey: 'key-5a0e1c77d2' };
    // A second listener on the same address: another origin, which must not get what the first one's key is for.
    const otherPort = await startLoopbackHttpServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end(`key: ${request.headers['x-api-key'] ?? 'none'}`);
    });
    try {
      // A bare host is https on its default port: neither loopback server (plain http, other ports) gets the key.
      const byHost = await fetchUrlTool(
        { ...defaults, secretHeaders: { '127.0.0.1': { 'X-Api-Key': 'apiKey' } } },
        loopbackAllowed,
        secrets,
      );
      const before = server.received.length;
      await call(byHost, { url: `${server.origin}/data` });
      assert.equal(await call(byHost, { url: `${otherPort.origin}/` }).then((result) => result.text), 'key: none');
      assert.equal(server.received.length, before + 1);
      assert.equal(server.received.at(-1)!.headers['x-api-key'], undefined, 'plain http on another port got none');

      // An origin written out is the one that gets it, and no other port of the host, directly or by a redirect.
      const byOrigin = await fetchUrlTool(
        { ...defaults, secretHeaders: { [server.origin]: { 'X-Api-Key': 'apiKey' } } },
        loopbackAllowed,
        secrets,
      );
      await call(byOrigin, { url: `${server.origin}/data` });
      assert.equal(server.received.at(-1)!.headers['x-api-key'], 'key-5a0e1c77d2');
      assert.equal(await call(byOrigin, { url: `${otherPort.origin}/` }).then((result) => result.text), 'key: none');
      const redirected = await call(byOrigin, {
        url: `${server.origin}/redirect?to=${encodeURIComponent(`${otherPort.origin}/`)}`,
      });
      assert.equal(redirected.url, `${otherPort.origin}/`);
      assert.equal(redirected.text, 'key: none');
      assert.equal(server.received.at(-1)!.headers['x-api-key'], 'key-5a0e1c77d2', 'the redirect was asked with it');
      for (const request of otherPort.received) assert.equal(request.headers['x-api-key'], undefined);
      assert.equal(otherPort.received.length, 3);
    } finally {
      await otherPort.close();
    }
  });

  it('refuses loopback when the core’s client does not allow private addresses', async () => {
    const tool = await fetchUrlTool(defaults, createOutboundFetch({ allowPrivateAddresses: false }));
    const before = server.received.length;
    assert.match(await toolError(call(tool, { url: `${server.origin}/page` })), /127\.0\.0\.1: a loopback address/);
    assert.match(
      await toolError(call(tool, { url: `http://localhost:${server.port}/page` })),
      /localhost: it resolves to a loopback/,
    );
    assert.equal(server.received.length, before);
  });

  it('says so when a host cannot be found', async () => {
    const tool = await fetchUrlTool(
      defaults,
      createOutboundFetch({ allowPrivateAddresses: true, resolveHost: failingResolver }),
    );
    assert.match(await toolError(call(tool, { url: 'http://nowhere.test/' })), /Could not find the host nowhere\.test/);
  });
});
