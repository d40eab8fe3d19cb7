import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import { isAllowedHost } from '../../src/plugins/http/allowed-hosts.js';
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
});
