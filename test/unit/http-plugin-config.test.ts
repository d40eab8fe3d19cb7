import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import { isAllowedHost, isOfSecretOrigin, secretOriginOf } from '../../src/plugins/http/allowed-hosts.js';
import { httpPluginConfigSchema } from '../../src/plugins/http/config.js';

describe('the http plugin’s configuration', () => {
  it('fills in the time and size caps and refuses unknown or out-of-range settings', () => {
    assert.deepEqual(Value.Default(httpPluginConfigSchema, {}), { timeoutMs: 10_000, maxResponseBytes: 1_048_576 });
    assert.ok(Value.Check(httpPluginConfigSchema, { timeoutMs: 30_000, maxResponseBytes: 5 * 1_048_576 }));
    for (const wrong of [
      { timeoutMs: 60_000, maxResponseBytes: 1024 },
      { timeoutMs: 1000, maxResponseBytes: 6 * 1_048_576 },
      { timeoutMs: 1000, maxResponseBytes: 1024, proxy: 'x' },
      { timeoutMs: 1000, maxResponseBytes: 1024, allowedHosts: ['https://example.com/'] },
    ]) {
      assert.equal(Value.Check(httpPluginConfigSchema, wrong), false, JSON.stringify(wrong));
    }
  });

  it('matches allowed hosts exactly, or any subdomain for a wildcard', () => {
    const list = ['api.example.com', '*.docs.example.org'];
    assert.ok(isAllowedHost('api.example.com', list));
    assert.ok(isAllowedHost('API.Example.com.', list));
    assert.ok(isAllowedHost('v2.docs.example.org', list));
    assert.ok(isAllowedHost('a.b.docs.example.org', list));
    assert.equal(isAllowedHost('docs.example.org', list), false);
    assert.equal(isAllowedHost('evil-docs.example.org', list), false);
    assert.equal(isAllowedHost('example.com', list), false);
    assert.equal(isAllowedHost('api.example.com.evil.net', list), false);
  });

  it('takes a host or an origin written out as a secretHeaders key, nothing else', () => {
    const withKey = (key: string) => ({ timeoutMs: 10_000, maxResponseBytes: 1_048_576, secretHeaders: { [key]: {} } });
    for (const key of [
      'api.example.com',
      '*.example.com',
      'https://api.example.com',
      'https://api.example.com:8443',
      'http://127.0.0.1:8080',
      'http://*.internal.example:65535',
    ]) {
      assert.ok(Value.Check(httpPluginConfigSchema, withKey(key)), key);
    }
    for (const key of [
      'api.example.com:8443',
      'ftp://api.example.com',
      'https://api.example.com/',
      'https://api.example.com/v1',
      'https://user@api.example.com',
      'https://api.example.com:0',
      'https://api.example.com:08443',
      'https://api.example.com:65536',
      'HTTPS://api.example.com',
    ]) {
      assert.equal(Value.Check(httpPluginConfigSchema, withKey(key)), false, key);
    }
  });

  it('secret headers are bound to their origin: a bare host is https on 443 only, the rest is written out', () => {
    const matches = (key: string, url: string) => isOfSecretOrigin(new URL(url), secretOriginOf(key));
    assert.ok(matches('api.example.com', 'https://api.example.com/v1'));
    assert.ok(matches('api.example.com', 'https://API.example.com:443/'));
    assert.equal(matches('api.example.com', 'http://api.example.com/'), false, 'not over plain http');
    assert.equal(matches('api.example.com', 'https://api.example.com:8443/'), false, 'not on another port');
    assert.ok(matches('*.example.com', 'https://v2.api.example.com/'));
    assert.equal(matches('*.example.com', 'http://v2.api.example.com/'), false);
    assert.ok(matches('https://api.example.com', 'https://api.example.com/'));
    assert.ok(matches('https://api.example.com:8443', 'https://api.example.com:8443/'));
    assert.equal(matches('https://api.example.com:8443', 'https://api.example.com/'), false);
    assert.ok(matches('http://127.0.0.1:8080', 'http://127.0.0.1:8080/data'));
    assert.equal(matches('http://127.0.0.1:8080', 'http://127.0.0.1:8081/'), false);
    assert.equal(matches('http://127.0.0.1:8080', 'https://127.0.0.1:8080/'), false);
    assert.ok(matches('http://api.example.com', 'http://api.example.com:80/'));
    assert.equal(matches('http://api.example.com', 'http://api.example.com.evil.net/'), false);
  });
});
