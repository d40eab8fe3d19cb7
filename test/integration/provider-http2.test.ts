import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateApiKey } from '../../src/security/api-key-secret.js';
import { callJson } from '../helpers/call-json.js';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeProviderServer } from '../helpers/fake-provider-server.js';
import { sendStreamedMessage } from '../helpers/message-stream.js';
import { startServer, type ServerProcess } from '../helpers/server-process.js';
import { deltaText } from '../helpers/sse-client.js';
import { makeTestCertificate } from '../helpers/tls-certificate.js';

/**
 * A provider at an https: address that offers HTTP/2 is called with it: the
 * streamed replies of many messages at once share one connection to the
 * provider (an open stream holds one file descriptor in agentd, not two), and
 * a provider that speaks only HTTP/1.1 over TLS works as before. agentd runs
 * as its own process, trusting the test's certificate through
 * NODE_EXTRA_CA_CERTS, as an operator with a private CA would.
 */
const certificate = makeTestCertificate();

for (const offersHttp2 of [true, false]) {
  describe(`a provider at an https: address ${offersHttp2 ? 'offering HTTP/2' : 'speaking HTTP/1.1 only'}`, () => {
    const key = generateApiKey();
    let fake: FakeProviderServer;
    let server: ServerProcess;
    let dataDir: string;
    let agentId: string;

    before(async () => {
      fake = await startFakeOpenAiServer({ tls: { ...certificate, http2: offersHttp2 } });
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentd-provider-h2-'));
      server = await startServer({
        AGENTD_DATA_DIR: dataDir,
        AGENTD_BOOTSTRAP_KEY: key,
        AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
        AGENTD_DEFAULT_MODEL: 'openai-compatible/test-model',
        AGENTD_PROVIDER_TIMEOUT_MS: '60000',
        AGENTD_MAX_OPEN_STREAMS_PER_ACCOUNT: '100',
        AGENTD_RATE_LIMITS: 'off',
        NODE_EXTRA_CA_CERTS: certificate.certPath,
      });
      const created = await callJson(server.url, key, 'POST', '/v1/agents', { name: 'Ava' });
      assert.equal(created.status, 201);
      agentId = created.body.id;
    });
    after(async () => {
      await server?.stop();
      await fake?.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('answers 30 overlapping streamed messages, each with its own reply', async () => {
      fake.setDefault({ reply: 'Reply one two three', tokenDelayMs: 30 });
      const before = fake.connections;
      const streams = await Promise.all(
        Array.from({ length: 30 }, (_, index) =>
          sendStreamedMessage(server.url, key, agentId, { text: `question ${index}`, userId: `user-${index}` }),
        ),
      );
      assert.deepEqual(
        streams.map((stream) => stream.status),
        streams.map(() => 200),
      );
      const replies = await Promise.all(streams.map(async (stream) => deltaText(await stream.events!.rest())));
      assert.deepEqual(
        replies,
        Array.from({ length: 30 }, () => 'Reply one two three'),
      );
      const replyRequests = fake.requests.slice(-30);
      assert.ok(replyRequests.every((request) => request.httpVersion === (offersHttp2 ? '2.0' : '1.1')));
      const opened = fake.connections - before;
      if (offersHttp2) assert.ok(opened <= 1, `${opened} connections for 30 overlapping calls`);
      else assert.ok(opened >= 10, `only ${opened} connections for 30 overlapping HTTP/1.1 calls`);
    });

    it('stops the model call when the client goes away, and the connection stays usable', async () => {
      fake.reset();
      fake.setDefault({ reply: 'one two three four five', tokenDelayMs: 60_000 });
      const stream = await sendStreamedMessage(server.url, key, agentId, { text: 'hello', userId: 'leaver' });
      assert.equal(stream.status, 200);
      stream.hangUp();
      await fake.waitForAbort(0);
      fake.setDefault({ reply: 'still here' });
      const answer = await callJson(server.url, key, 'POST', `/v1/agents/${agentId}/messages`, {
        text: 'again',
        userId: 'leaver',
      });
      assert.equal(answer.status, 200);
      assert.equal(answer.body.text, 'still here');
    });
  });
}
