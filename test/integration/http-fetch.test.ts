import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import zlib from 'node:zlib';
import { createHttpFetch } from '../../src/providers/http-fetch.js';
import { makeTestCertificate } from '../helpers/tls-certificate.js';

/**
 * The providers' fetch answers as the global fetch does, over real HTTP on
 * loopback: what the AI SDK reads of a response (status, headers, a streamed
 * body) and how it fails (aborts, refused connections, cut-off bodies). The
 * same over plain HTTP, over https: with a server that speaks only HTTP/1.1,
 * and over HTTP/2, which https: origins that offer it are called with.
 */
const certificate = makeTestCertificate();
const transports = [
  { name: 'http:', scheme: 'http', version: '1.1' },
  { name: 'https: with HTTP/1.1 only', scheme: 'https', version: '1.1' },
  { name: 'https: with HTTP/2', scheme: 'https', version: '2.0' },
] as const;

function startServer(
  transport: (typeof transports)[number],
  handle: (request: http.IncomingMessage, response: http.ServerResponse) => void,
  settings: http2.Settings = {},
): http.Server | https.Server | http2.Http2SecureServer {
  const tls = { key: certificate.key, cert: certificate.cert };
  if (transport.scheme === 'http') return http.createServer(handle);
  if (transport.version === '1.1') return https.createServer(tls, handle);
  return http2.createSecureServer({ ...tls, allowHTTP1: true, settings }, handle as never);
}

async function listen(server: ReturnType<typeof startServer>, scheme: string): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Ends the server and every connection it holds. */
function stop(server: ReturnType<typeof startServer>, sessions: Set<{ destroy(): void }>): void {
  server.close();
  for (const session of sessions) session.destroy();
}

/** Sessions and sockets a server has accepted, so that `stop` can end them. */
function tracked(server: ReturnType<typeof startServer>): Set<{ destroy(): void }> {
  const open = new Set<{ destroy(): void }>();
  server.on('session', (session: http2.ServerHttp2Session) => open.add(session));
  server.on('connection', (socket: import('node:net').Socket) => open.add(socket));
  return open;
}

for (const transport of transports)
  describe(`the providers’ fetch, ${transport.name}`, () => {
    let server: ReturnType<typeof startServer>;
    let open: Set<{ destroy(): void }>;
    let base: string;
    const httpFetch = createHttpFetch({ ca: certificate.cert });
    const seen: Array<{ method: string; headers: http.IncomingHttpHeaders; body: string; version: string }> = [];
    /** Releases the rest of a held stream. */
    let release: () => void = () => undefined;

    before(async () => {
      server = startServer(transport, (request, response) => {
        let body = '';
        request.on('data', (chunk) => (body += chunk));
        request.on('end', () => {
          seen.push({ method: request.method ?? '', headers: request.headers, body, version: request.httpVersion });
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
              // Over HTTP/2 the answer is one stream of a shared connection: the stream is cut, not the connection.
              setImmediate(() =>
                'stream' in response
                  ? (response as unknown as http2.Http2ServerResponse).stream.destroy()
                  : response.socket?.destroy(),
              );
              return;
            default:
              response.writeHead(404);
              response.end('no such path');
          }
        });
      });
      open = tracked(server);
      base = await listen(server, transport.scheme);
    });
    after(async () => {
      release();
      httpFetch.close();
      stop(server, open);
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
      assert.equal(request.version, transport.version);
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
      await assert.rejects(httpFetch(`${transport.scheme}://127.0.0.1:${port}/`), (error: TypeError) => {
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
      // A redirect is the global fetch's to follow; it trusts only the system's certificates, not this test's.
      if (transport.scheme === 'http') {
        const moved = await httpFetch(`${base}/moved`, { method: 'POST', body: 'again' });
        assert.equal(moved.status, 201);
        assert.deepEqual(await moved.json(), { echoed: 'again' });
      }
      const empty = await httpFetch(`${base}/empty`);
      assert.equal(empty.status, 204);
      assert.equal(empty.body, null);
    });
  });

describe('the providers’ fetch over HTTP/2: many calls on few connections', () => {
  const transport = transports[2];

  /** A server whose answers are held until `releaseAll`; it counts the connections it accepted. */
  async function heldServer(settings: http2.Settings = {}) {
    const held: Array<() => void> = [];
    const requestListeners: Array<() => void> = [];
    let connections = 0;
    const server = startServer(
      transport,
      (request, response) => {
        requestListeners.splice(0).forEach((listener) => listener());
        // Never answered.
        if (request.url === '/quiet') return;
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write('data: first\n\n');
        held.push(() => response.end('data: last\n\n'));
      },
      settings,
    );
    const open = tracked(server);
    const sessions = new Set<http2.ServerHttp2Session>();
    server.on('session', (session: http2.ServerHttp2Session) => {
      sessions.add(session);
      session.once('close', () => sessions.delete(session));
    });
    const sockets = new Set<import('node:tls').TLSSocket>();
    server.on('secureConnection', (socket: import('node:tls').TLSSocket) => {
      connections += 1;
      sockets.add(socket);
    });
    const base = await listen(server, 'https');
    return {
      base,
      held,
      get connections() {
        return connections;
      },
      releaseAll: () => held.splice(0).forEach((end) => end()),
      /** Calls `listener` when the next request arrives. */
      onRequest: (listener: () => void) => requestListeners.push(listener),
      /** Tells every connection to go away (GOAWAY), as a server does when it restarts or rebalances. */
      goAway: () => sessions.forEach((session) => session.close()),
      /** Breaks every connection off. */
      breakOff: () => sessions.forEach((session) => session.destroy()),
      /** Closes the TCP connections under the sessions, with no GOAWAY (as a proxy dropping them does). */
      dropSockets: () => sockets.forEach((socket) => socket.end()),
      stop: () => stop(server, open),
    };
  }

  async function firstEvent(response: Response): Promise<ReadableStreamDefaultReader<Uint8Array>> {
    const reader = response.body!.getReader();
    const first = await reader.read();
    assert.equal(Buffer.from(first.value!).toString(), 'data: first\n\n');
    return reader;
  }

  async function rest(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
    let text = '';
    for (let part = await reader.read(); !part.done; part = await reader.read()) text += Buffer.from(part.value);
    return text;
  }

  type HeldServer = Awaited<ReturnType<typeof heldServer>>;
  type ProviderFetch = ReturnType<typeof createHttpFetch>;

  /** A held server and a fetch of its own for `test`, both ended after it. */
  async function withHeldServer(
    settings: http2.Settings,
    test: (server: HeldServer, httpFetch: ProviderFetch) => Promise<void>,
  ): Promise<void> {
    const server = await heldServer(settings);
    const httpFetch = createHttpFetch({ ca: certificate.cert });
    try {
      await test(server, httpFetch);
    } finally {
      httpFetch.close();
      server.stop();
    }
  }

  /** `count` calls at once, each read to its first event (the server holds the rest). */
  const calls = (server: HeldServer, httpFetch: ProviderFetch, count: number) =>
    Promise.all(
      Array.from({ length: count }, async () =>
        firstEvent(await httpFetch(`${server.base}/`, { method: 'POST', body: '{}' })),
      ),
    );

  /** Lets the held answers end and checks that each call reads the rest of its own. */
  async function finish(server: HeldServer, readers: ReadableStreamDefaultReader<Uint8Array>[]): Promise<void> {
    server.releaseAll();
    for (const text of await Promise.all(readers.map(rest))) assert.equal(text, 'data: last\n\n');
  }

  it('carries 150 overlapping streamed calls on two connections, 100 streams each at most', () =>
    withHeldServer({}, async (server, httpFetch) => {
      const readers = await calls(server, httpFetch, 150);
      assert.equal(server.held.length, 150);
      assert.equal(server.connections, 2);
      await finish(server, readers);
      // Calls after them reuse the connections.
      await finish(server, await calls(server, httpFetch, 1));
      assert.equal(server.connections, 2);
    }));

  it('keeps to the streams a server allows on a connection, opening more connections', () =>
    withHeldServer({ maxConcurrentStreams: 10 }, async (server, httpFetch) => {
      // All at once, before any connection is open: none is given more streams than its server takes.
      const readers = await calls(server, httpFetch, 60);
      assert.equal(server.held.length, 60);
      assert.equal(server.connections, 6);
      await finish(server, readers);
    }));

  for (const ending of ['goAway', 'breakOff'] as const) {
    it(`opens a new connection for the next call when the server ${ending === 'goAway' ? 'sends GOAWAY' : 'breaks the connection off'}`, () =>
      withHeldServer({}, async (server, httpFetch) => {
        await finish(server, await calls(server, httpFetch, 1));
        server[ending]();
        // At once, before the client may have seen the connection end: the call must not fail.
        await finish(server, await calls(server, httpFetch, 1));
        assert.equal(server.connections, 2);
      }));
  }

  it('fails a call whose connection closes under it, before the answer or in the middle of it', () =>
    withHeldServer({}, async (server, httpFetch) => {
      // Mid-answer: the body read fails, as a cut HTTP/1.1 body does, rather than ending as if complete.
      const [reader] = await calls(server, httpFetch, 1);
      server.dropSockets();
      await assert.rejects(rest(reader!), { message: 'terminated' });
      // Before the answer: "fetch failed", at once, not a call left waiting forever.
      const answered = new Promise<void>((resolve) => server.onRequest(resolve));
      const call = httpFetch(`${server.base}/quiet`, { method: 'POST', body: '{}' });
      await answered;
      server.dropSockets();
      await assert.rejects(call, { message: 'fetch failed' });
    }));
});
