import assert from 'node:assert/strict';
import type http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createOutboundFetch } from '../../src/outbound/outbound-fetch.js';
import { OutboundRefusedError } from '../../src/outbound/outbound-refused-error.js';
import { startLoopbackHttpServer, type LoopbackHttpServer } from '../helpers/loopback-http-server.js';

/**
 * What callers read of the outbound client when the address is allowed: it
 * behaves as the global fetch for methods, bodies, redirects, aborts and
 * streamed bodies. Private addresses are switched on so loopback servers answer.
 */
describe('the outbound client, where the address is allowed', () => {
  const outboundFetch = createOutboundFetch({ allowPrivateAddresses: true });
  let server: LoopbackHttpServer;
  /** Streams held open by /held, released by the test. */
  const held: http.ServerResponse[] = [];

  before(async () => {
    server = await startLoopbackHttpServer((request, response) => {
      const url = new URL(request.path, 'http://x');
      const hops = Number(url.searchParams.get('hops') ?? '0');
      switch (url.pathname) {
        case '/echo':
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ method: request.method, body: request.body, headers: request.headers }));
          return;
        case '/chain':
          response.writeHead(302, { location: hops > 0 ? `/chain?hops=${hops - 1}` : '/echo' });
          response.end();
          return;
        case '/status': {
          const status = Number(url.searchParams.get('code'));
          response.writeHead(status, { location: url.searchParams.get('to') ?? '/echo' });
          response.end();
          return;
        }
        case '/held':
          response.writeHead(200, { 'content-type': 'text/event-stream' });
          response.write('data: first\n\n');
          held.push(response);
          return;
        default:
          response.writeHead(404);
          response.end('no such path');
      }
    });
  });
  after(async () => {
    for (const response of held) response.end();
    await server.close();
  });

  it('sends the method, headers and body and answers with status, headers, body and final URL', async () => {
    const response = await outboundFetch(`${server.origin}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-custom': 'yes' },
      body: '{"a":1}',
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.equal(response.url, `${server.origin}/echo`);
    assert.equal(response.redirected, false);
    const echoed = (await response.json()) as { method: string; body: string; headers: Record<string, string> };
    assert.equal(echoed.method, 'POST');
    assert.equal(echoed.body, '{"a":1}');
    assert.equal(echoed.headers['x-custom'], 'yes');
  });

  it('follows up to five redirects and refuses the sixth', async () => {
    const five = await outboundFetch(`${server.origin}/chain?hops=4`);
    assert.equal(five.status, 200);
    assert.equal(five.url, `${server.origin}/echo`);
    assert.equal(five.redirected, true);
    await five.body?.cancel();
    await assert.rejects(outboundFetch(`${server.origin}/chain?hops=5`), (error: unknown) => {
      assert.ok(error instanceof OutboundRefusedError);
      assert.match(error.message, /more than 5 redirects/);
      return true;
    });
  });

  it('changes POST to GET on 303 and keeps it with its body on 307', async () => {
    const seeOther = await outboundFetch(`${server.origin}/status?code=303`, { method: 'POST', body: 'payload' });
    assert.deepEqual(await seeOther.json().then((echo: any) => [echo.method, echo.body]), ['GET', '']);
    const temporary = await outboundFetch(`${server.origin}/status?code=307`, { method: 'POST', body: 'payload' });
    assert.deepEqual(await temporary.json().then((echo: any) => [echo.method, echo.body]), ['POST', 'payload']);
  });

  it('keeps credentials on the same origin and drops them when a redirect leaves it', async () => {
    const headers = { authorization: 'Bearer secret' };
    const same = await outboundFetch(`${server.origin}/status?code=302`, { headers });
    assert.equal(((await same.json()) as any).headers.authorization, 'Bearer secret');
    const elsewhere = `http://localhost:${server.port}/echo`;
    const other = await outboundFetch(`${server.origin}/status?code=302&to=${encodeURIComponent(elsewhere)}`, {
      headers,
    });
    assert.equal(other.url, elsewhere);
    assert.equal(((await other.json()) as any).headers.authorization, undefined);
  });

  it('a cross-origin redirect carries no secret header: another port of the same host gets only harmless ones', async () => {
    // Another port of the same address is another origin: a listener there is not the API that was called.
    const otherPort = await startLoopbackHttpServer((request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ body: request.body }));
    });
    try {
      const headers = {
        accept: 'application/json',
        'content-type': 'text/plain',
        'x-api-key': 'key-secret',
        'x-custom': 'anything',
        authorization: 'Bearer secret',
      };
      const target = encodeURIComponent(`${otherPort.origin}/landing`);
      const response = await outboundFetch(`${server.origin}/status?code=307&to=${target}`, {
        method: 'POST',
        headers,
        body: 'payload',
      });
      assert.equal(response.url, `${otherPort.origin}/landing`);
      assert.deepEqual(await response.json(), { body: 'payload' });
      const [landed] = otherPort.received;
      assert.equal(otherPort.received.length, 1);
      assert.equal(landed!.headers.accept, 'application/json');
      assert.equal(landed!.headers['content-type'], 'text/plain');
      for (const name of ['x-api-key', 'x-custom', 'authorization']) {
        assert.equal(landed!.headers[name], undefined, `${name} stayed with the origin it was meant for`);
      }
      const first = server.received.at(-1)!;
      assert.equal(first.headers['x-api-key'], 'key-secret', 'the origin called got it');
    } finally {
      await otherPort.close();
    }
  });

  it('honours redirect: manual and redirect: error', async () => {
    const manual = await outboundFetch(`${server.origin}/status?code=302`, { redirect: 'manual' });
    assert.equal(manual.status, 302);
    assert.equal(manual.headers.get('location'), '/echo');
    await assert.rejects(
      outboundFetch(`${server.origin}/status?code=302`, { redirect: 'error' }),
      OutboundRefusedError,
    );
  });

  it('hands a streamed body over as it arrives', async () => {
    const response = await outboundFetch(`${server.origin}/held`);
    const reader = response.body!.getReader();
    const first = await reader.read();
    // The server is still holding the rest back: the first event came on its own.
    assert.equal(new TextDecoder().decode(first.value), 'data: first\n\n');
    held.at(-1)!.end('data: last\n\n');
    const rest: string[] = [];
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      rest.push(new TextDecoder().decode(chunk.value));
    }
    assert.equal(rest.join(''), 'data: last\n\n');
  });

  it('stops when the signal aborts, before the answer and while reading the body', async () => {
    const early = new AbortController();
    early.abort(new Error('gave up'));
    await assert.rejects(outboundFetch(`${server.origin}/echo`, { signal: early.signal }), /gave up/);

    const midway = new AbortController();
    const response = await outboundFetch(`${server.origin}/held`, { signal: midway.signal });
    const reader = response.body!.getReader();
    await reader.read();
    midway.abort(new Error('client went away'));
    await assert.rejects(reader.read(), /client went away/);
  });

  it('sends the request again when the server dropped the pooled connection it was about to use', async () => {
    const first = await outboundFetch(`${server.origin}/echo`);
    await first.text();
    const requestsBefore = server.received.length;
    // The client has not yet noticed the connection is gone when it writes the next request on it.
    server.dropConnections();
    const second = await outboundFetch(`${server.origin}/echo`, { method: 'POST', body: 'once' });
    assert.equal(second.status, 200);
    assert.equal(((await second.json()) as any).body, 'once');
    assert.equal(server.received.length, requestsBefore + 1, 'the server received the request once');
  });

  it('fails as the global fetch does when nothing answers', async () => {
    const closed = await startLoopbackHttpServer(() => undefined);
    await closed.close();
    await assert.rejects(outboundFetch(`${closed.origin}/`), (error: unknown) => {
      assert.ok(error instanceof TypeError);
      assert.equal((error.cause as NodeJS.ErrnoException).code, 'ECONNREFUSED');
      return true;
    });
  });
});
