import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('connection bounds in the configuration', () => {
  it('has explicit defaults', () => {
    assert.deepEqual(loadConfig({}).http, {
      headersTimeoutMs: 20_000,
      requestTimeoutMs: 120_000,
      keepAliveTimeoutMs: 72_000,
      maxHeaderBytes: 16_384,
      maxQueryBytes: 4096,
      listenBacklog: 4096,
    });
  });

  it('reads each bound from its variable', () => {
    const http = loadConfig({
      AGENTD_HEADERS_TIMEOUT_MS: '500',
      AGENTD_REQUEST_TIMEOUT_MS: '900',
      AGENTD_KEEP_ALIVE_TIMEOUT_MS: '700',
      AGENTD_MAX_HEADER_BYTES: '8192',
      AGENTD_MAX_QUERY_BYTES: '1024',
      AGENTD_LISTEN_BACKLOG: '2048',
    }).http;
    assert.deepEqual(http, {
      headersTimeoutMs: 500,
      requestTimeoutMs: 900,
      keepAliveTimeoutMs: 700,
      maxHeaderBytes: 8192,
      maxQueryBytes: 1024,
      listenBacklog: 2048,
    });
  });

  it('names the variable of a value out of range', () => {
    for (const [variable, value] of [
      ['AGENTD_HEADERS_TIMEOUT_MS', '0'],
      ['AGENTD_MAX_HEADER_BYTES', '10'],
      ['AGENTD_MAX_QUERY_BYTES', 'lots'],
      ['AGENTD_KEEP_ALIVE_TIMEOUT_MS', '-1'],
      ['AGENTD_LISTEN_BACKLOG', '0'],
    ] as const) {
      assert.throws(
        () => loadConfig({ [variable]: value }),
        (error: unknown) => error instanceof ConfigError && error.variable === variable,
      );
    }
  });

  it('refuses a request time-out shorter than the headers time-out', () => {
    assert.throws(
      () => loadConfig({ AGENTD_HEADERS_TIMEOUT_MS: '5000', AGENTD_REQUEST_TIMEOUT_MS: '1000' }),
      (error: unknown) => error instanceof ConfigError && error.variable === 'AGENTD_REQUEST_TIMEOUT_MS',
    );
  });
});
