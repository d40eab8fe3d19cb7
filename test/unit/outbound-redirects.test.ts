import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redirectedRequest, type RedirectableRequest } from '../../src/outbound/redirects.js';

function post(url = 'https://api.example.com/start'): RedirectableRequest {
  return {
    url: new URL(url),
    method: 'POST',
    headers: new Headers({ 'content-type': 'application/json', authorization: 'Bearer secret', 'x-trace': '1' }),
    body: Buffer.from('{"a":1}'),
  };
}

describe('following a redirect', () => {
  it('turns a POST into a bodiless GET on 301, 302 and 303', () => {
    for (const status of [301, 302, 303]) {
      const next = redirectedRequest(post(), status, '/next')!;
      assert.equal(next.method, 'GET', String(status));
      assert.equal(next.body, null);
      assert.equal(next.headers.get('content-type'), null);
      assert.equal(next.url.href, 'https://api.example.com/next');
    }
  });

  it('keeps the method and body on 307 and 308', () => {
    for (const status of [307, 308]) {
      const next = redirectedRequest(post(), status, 'https://api.example.com/other')!;
      assert.equal(next.method, 'POST');
      assert.equal(Buffer.from(next.body!).toString(), '{"a":1}');
      assert.equal(next.headers.get('content-type'), 'application/json');
    }
  });

  it('drops credentials when the redirect leaves the origin, and only then', () => {
    const same = redirectedRequest(post(), 307, '/same-origin')!;
    assert.equal(same.headers.get('authorization'), 'Bearer secret');
    const other = redirectedRequest(post(), 307, 'https://elsewhere.example.net/')!;
    assert.equal(other.headers.get('authorization'), null);
    const downgraded = redirectedRequest(post(), 307, 'http://api.example.com/')!;
    assert.equal(downgraded.headers.get('authorization'), null);
  });

  it('a cross-origin redirect carries no secret header: only headers known to hold nothing of the caller’s go on', () => {
    const request: RedirectableRequest = {
      url: new URL('https://api.example.com/start'),
      method: 'POST',
      headers: new Headers({
        accept: 'application/json',
        'accept-language': 'pt-PT',
        'content-type': 'application/json',
        'user-agent': 'agentd',
        'x-api-key': 'key-secret',
        'private-token': 'token-secret',
        authorization: 'Bearer secret',
        cookie: 'session=secret',
      }),
      body: Buffer.from('{"a":1}'),
    };
    const harmless = {
      accept: 'application/json',
      'accept-language': 'pt-PT',
      'content-type': 'application/json',
      'user-agent': 'agentd',
    };
    // Another host, another port of the same host, and plain http of the same host are each another origin.
    for (const location of [
      'https://elsewhere.example.net/',
      'https://api.example.com:8443/',
      'http://api.example.com/',
    ]) {
      const next = redirectedRequest(request, 307, location)!;
      assert.deepEqual(Object.fromEntries(next.headers), harmless, location);
    }
    const same = redirectedRequest(request, 307, '/next')!;
    assert.equal(same.headers.get('x-api-key'), 'key-secret', 'the same origin keeps every header');
    assert.equal(same.headers.get('private-token'), 'token-secret');
  });

  it('is not a redirect without a location or with another status', () => {
    assert.equal(redirectedRequest(post(), 302, null), null);
    assert.equal(redirectedRequest(post(), 200, '/x'), null);
    assert.equal(redirectedRequest(post(), 304, '/x'), null);
  });
});
