import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import zlib from 'node:zlib';
import { httpFetch } from '../../src/providers/http-fetch.js';

/**
 * The providers' fetch answers as the global fetch does, over real HTTP on
 * loopback: what the AI SDK reads of a response (status, headers, a streamed
 * body) and how it fails (aborts, refused connections, cut-off bodies).
 */
describe('the providers’ fetch', () => {
  let server: http.Server;
  let base: string;
  const seen: Array<{ method: string; headers: http.IncomingHttpHeaders; body: string }> = [];
  /** Releases the rest of a held stream. */
  let release: () => void = () => undefined;

  before(async () => {
    server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        seen.push({ method: request.method ?? '', headers: request.headers, body });
        switch (request.url) {
          case '/json':
            response.writeHead(201, { 'content-type': 'application/json', 'x-request-id': 'abc' });
            response.end(JSON.stringify({ echoed: body }));
            return;
          case '/held':
            response.writeHead(200, { 'content-type': 'text/event-stream' });
            response.write('data: first\n\n');
            release = () => response.end('data: last\n\n');
            return;
          case '/gzip':
            response.writeHead(200, { 'content-encoding': 'gzip' });
            response.end(zlib.gzipSync('compressed words'));
            return;
          case '/moved':
            response.writeHead(307, { location: '/json' });
            response.end();
            return;
          case '/empty':
            response.writeHead(204);
            response.end();
            return;
          case '/cut':
            response.writeHead(200, { 'content-length': '100' });
            response.write('only part');
            setImmediate(() => response.socket?.destroy());
            return;
          default:
            response.writeHead(404);
            response.end('no such path');
        }
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    release();
    server.closeAllConnections();
    server.close();
  });

  it('sends the method, headers and body, and returns status, headers and body', async () => {
    const response = await httpFetch(`${base}/json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
      body: '{"a":1}',
    });
    assert.equal(response.status, 201);
    assert.equal(response.headers.get('x-request-id'), 'abc');
    assert.deepEqual(await response.json(), { echoed: '{"a":1}' });
    const request = seen.at(-1)!;
    assert.equal(request.method, 'POST');
    assert.equal(request.headers.authorization, 'Bearer k');
    assert.equal(request.headers['content-length'], '7');
  });

  it('hands over the body as it arrives, before the response ends', async () => {
    const response = await httpFetch(`${base}/held`, { method: 'POST', body: '{}' });
    const reader = response.body!.getReader();
    const first = await reader.read();
    assert.equal(Buffer.from(first.value!).toString(), 'data: first\n\n');
    release();
    let rest = '';
    for (let part = await reader.read(); !part.done; part = await reader.read()) rest += Buffer.from(part.value);
    assert.equal(rest, 'data: last\n\n');
  });

  it('fails a read with the abort reason when the signal aborts mid-body', async () => {
    const controller = new AbortController();
    const response = await httpFetch(`${base}/held`, { method: 'POST', body: '{}', signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await assert.rejects(reader.read(), (error: Error) => error.name === 'AbortError');
    release();
  });

  it('rejects at once for a signal aborted before the call', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(httpFetch(`${base}/json`, { signal: controller.signal }), { name: 'AbortError' });
  });

  it('rejects a refused connection as the global fetch does: "fetch failed" with the cause', async () => {
    const closed = http.createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, 'close');
    await assert.rejects(httpFetch(`http://127.0.0.1:${port}/`), (error: TypeError) => {
      assert.equal(error.message, 'fetch failed');
      assert.equal((error.cause as NodeJS.ErrnoException).code, 'ECONNREFUSED');
      return true;
    });
  });

  it('fails a read when the server cuts the body short', async () => {
    const response = await httpFetch(`${base}/cut`);
    await assert.rejects(response.text());
  });

  it('decodes a compressed body, follows a redirect and gives a bodiless status no body', async () => {
    assert.equal(await (await httpFetch(`${base}/gzip`)).text(), 'compressed words');
    const moved = await httpFetch(`${base}/moved`, { method: 'POST', body: 'again' });
    assert.equal(moved.status, 201);
    assert.deepEqual(await moved.json(), { echoed: 'again' });
    const empty = await httpFetch(`${base}/empty`);
    assert.equal(empty.status, 204);
    assert.equal(empty.body, null);
  });
});
