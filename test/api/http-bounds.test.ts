import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { sendRaw } from '../helpers/raw-http.js';
import { idleAfterOneRequest, trickleRequest } from '../helpers/slow-client.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Resource bounds of one connection (OWASP API4): headers and whole requests
 * that arrive too slowly, idle keep-alive connections, oversized headers and
 * query strings. The bounds are configured small so each test takes well
 * under a second; the defaults are checked on their own.
 */
const headersTimeoutMs = 400;
const requestTimeoutMs = 800;
const keepAliveTimeoutMs = 300;
const maxHeaderBytes = 4096;
const maxQueryBytes = 512;
// Node enforces the time-outs on a periodic sweep (a quarter of the headers time-out) and a loaded test
// machine adds its own delay; a missing bound still fails, since the client would go on for 20 s.
const slack = headersTimeoutMs / 4 + 1500;

describe('bounds of one connection', () => {
  let t: TestApp;
  let port: number;

  before(async () => {
    t = await createTestApp({
      env: {
        AGENTD_HEADERS_TIMEOUT_MS: String(headersTimeoutMs),
        AGENTD_REQUEST_TIMEOUT_MS: String(requestTimeoutMs),
        AGENTD_KEEP_ALIVE_TIMEOUT_MS: String(keepAliveTimeoutMs),
        AGENTD_MAX_HEADER_BYTES: String(maxHeaderBytes),
        AGENTD_MAX_QUERY_BYTES: String(maxQueryBytes),
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(() => t?.close());

  it('cuts off a client that sends its headers byte by byte (slow-loris)', async () => {
    const exchange = await trickleRequest({
      port,
      head: 'GET /healthz HTTP/1.1\r\nHost: agentd\r\n',
      trickle: `X-Slow: ${'a'.repeat(400)}\r\n\r\n`,
      everyMs: 50,
      giveUpMs: 20_000,
    });
    assert.ok(exchange.closedAfterMs >= headersTimeoutMs - 50, `closed after ${exchange.closedAfterMs} ms`);
    assert.ok(exchange.closedAfterMs <= headersTimeoutMs + slack, `closed after ${exchange.closedAfterMs} ms`);
    assert.equal(exchange.received, '', 'a client this slow gets no answer');
  });

  it('cuts off a client that sends its body byte by byte', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(300) });
    const exchange = await trickleRequest({
      port,
      head:
        `POST /v1/agents HTTP/1.1\r\nHost: agentd\r\nAuthorization: Bearer ${t.owner.key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      trickle: body,
      everyMs: 20,
      giveUpMs: 20_000,
    });
    assert.ok(exchange.closedAfterMs <= requestTimeoutMs + slack, `closed after ${exchange.closedAfterMs} ms`);
    assert.ok(exchange.bytesSent < body.length, 'the request never completed');
    const agents = (await t.inject({ method: 'GET', url: '/v1/agents' })).json();
    assert.equal(agents.pagination.total, 0, 'nothing was created from the cut-off request');
  });

  it('closes an idle keep-alive connection after the keep-alive time-out', async () => {
    const { idleMs, received } = await idleAfterOneRequest(port, 20_000);
    assert.match(received, /^HTTP\/1\.1 200/);
    assert.ok(idleMs >= keepAliveTimeoutMs - 50, `closed after ${idleMs} ms idle`);
    // Node 20 keeps an idle socket open one second past keepAliveTimeout before closing it.
    assert.ok(idleMs <= keepAliveTimeoutMs + 1000 + slack, `closed after ${idleMs} ms idle`);
  });

  it('answers headers over the configured size with 413 and serves headers under it', async () => {
    const request = (padding: number) =>
      Buffer.from(
        `GET /healthz HTTP/1.1\r\nHost: agentd\r\nX-Padding: ${'p'.repeat(padding)}\r\nConnection: close\r\n\r\n`,
      );
    const over = await sendRaw(port, request(maxHeaderBytes + 1), 5_000);
    assert.equal(over.kind, 'response');
    assert.equal(over.kind === 'response' && over.response.status, 413);
    const under = await sendRaw(port, request(maxHeaderBytes - 200), 5_000);
    assert.equal(under.kind === 'response' && under.response.status, 200);
  });

  it('answers a query string over the bound with a validation problem pointing at the query', async () => {
    const atBound = await t.app.inject({ method: 'GET', url: `/healthz?pad=${'q'.repeat(maxQueryBytes - 4)}` });
    assert.equal(atBound.statusCode, 200);
    const over = await t.app.inject({ method: 'GET', url: `/healthz?pad=${'q'.repeat(maxQueryBytes - 3)}` });
    assert.equal(over.statusCode, 400);
    const problem = over.json();
    assert.equal(problem.code, 'validation_failed');
    assert.deepEqual(problem.errors, [
      { path: '/query', code: 'too_long', message: `must be at most ${maxQueryBytes} bytes` },
    ]);
  });

  it('refuses an oversized query before looking at the key', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/v1/agents?cursor=${'c'.repeat(maxQueryBytes)}` });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().code, 'validation_failed');
  });
});

describe('default connection bounds', () => {
  it('sets every bound explicitly instead of relying on Node and Fastify defaults', async () => {
    const t = await createTestApp();
    try {
      const server = t.app.server;
      assert.equal(server.headersTimeout, 20_000);
      assert.equal(server.requestTimeout, 120_000);
      assert.equal(server.keepAliveTimeout, 72_000);
      const query = await t.app.inject({ method: 'GET', url: `/healthz?pad=${'q'.repeat(4096)}` });
      assert.equal(query.statusCode, 400, 'the default query bound is 4 KiB');
    } finally {
      await t.close();
    }
  });
});
