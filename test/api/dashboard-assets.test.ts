import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import zlib from 'node:zlib';
import { dashboardContentSecurityPolicy, dashboardDirectory } from '../../src/http/dashboard.js';
import { assertDashboardBuilt } from '../helpers/browser.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** The built dashboard (dist/web, from `npm run build`) as agentd serves it, next to an undisturbed API. */
describe('the dashboard assets', () => {
  let t: TestApp;
  let script: string;
  before(async () => {
    assertDashboardBuilt();
    t = await createTestApp();
    const index = fs.readFileSync(path.join(dashboardDirectory, 'index.html'), 'utf8');
    script = /src="(\/assets\/[^"]+\.js)"/.exec(index)?.[1] ?? '';
    assert.ok(script, 'index.html loads a script from /assets');
  });
  after(async () => t?.close());

  it('serves the page at / with a strict Content-Security-Policy, revalidated on every load', async () => {
    for (const url of ['/', '/index.html']) {
      const page = await t.app.inject({ method: 'GET', url });
      assert.equal(page.statusCode, 200, url);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assert.equal(page.headers['content-security-policy'], dashboardContentSecurityPolicy);
      assert.match(dashboardContentSecurityPolicy, /script-src 'self'(;|$)/);
      assert.match(dashboardContentSecurityPolicy, /frame-ancestors 'none'/);
      assert.equal(page.headers['cache-control'], 'no-cache');
      assert.equal(page.headers['x-content-type-options'], 'nosniff');
      assert.match(page.body, /<div id="app">/);
      // No inline script: the policy would block it.
      assert.doesNotMatch(page.body, /<script(?![^>]*\bsrc=)[^>]*>/);
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/' });
    assert.equal(head.statusCode, 200);
    // Revalidation: an unchanged page is not sent again.
    const etag = String(head.headers.etag);
    const unchanged = await t.app.inject({ method: 'GET', url: '/', headers: { 'if-none-match': etag } });
    assert.equal(unchanged.statusCode, 304);
    assert.equal(unchanged.body, '');
  });

  it('sends hashed assets pre-compressed and marked immutable', async () => {
    const plain = fs.readFileSync(path.join(dashboardDirectory, script));
    for (const [encoding, decode] of [
      ['br', zlib.brotliDecompressSync],
      ['gzip', zlib.gunzipSync],
    ] as const) {
      const response = await t.app.inject({ method: 'GET', url: script, headers: { 'accept-encoding': encoding } });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['content-encoding'], encoding);
      assert.match(String(response.headers['content-type']), /javascript/);
      assert.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.match(String(response.headers.vary), /accept-encoding/i);
      assert.ok(response.rawPayload.length < plain.length / 2, `${encoding} copy is smaller`);
      assert.deepEqual(decode(response.rawPayload), plain);
    }
    const identity = await t.app.inject({ method: 'GET', url: script, headers: { 'accept-encoding': 'identity' } });
    assert.equal(identity.headers['content-encoding'], undefined);
    assert.deepEqual(identity.rawPayload, plain);
  });

  it('leaves every other path to the API: problems for unknown files and methods, keys for /v1', async () => {
    for (const [method, url] of [
      ['GET', '/assets/missing-0123abcd.js'],
      ['GET', `${script}.br`],
      ['GET', '/agents'],
      ['POST', '/'],
      ['DELETE', script],
    ] as const) {
      const response = await t.app.inject({ method, url });
      assert.equal(response.statusCode, 404, `${method} ${url}`);
      assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
      assert.equal(response.json().code, 'not_found');
    }
    const api = await t.app.inject({ method: 'GET', url: '/v1/agents' });
    assert.equal(api.statusCode, 401);
    assert.equal(api.headers['content-security-policy'], undefined, 'API responses keep their own headers');
    const document = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    assert.equal(document.statusCode, 200);
    assert.ok(!('/' in document.json().paths), 'the dashboard is not an operation of the API');
  });
});
