import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeProviderServer } from '../helpers/fake-provider-server.js';
import { startLoopbackHttpServer, type LoopbackHttpServer } from '../helpers/loopback-http-server.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The http plugin's secret headers through an agent: a model (the fake
 * OpenAI-compatible server) asks for `fetch_url`, agentd adds the entry's
 * credentials for the host, and neither the model nor the log ever sees them,
 * not in what the provider is sent, not when a redirect leads elsewhere, not
 * when the server echoes them back.
 */

const token = 'Bearer api-token-5c1e9d7f20b3';
const apiKey = 'key-93ab61f0c4d2';

describe('the http plugin’s secret headers', () => {
  let fake: FakeProviderServer;
  let api: LoopbackHttpServer;
  let elsewhere: LoopbackHttpServer;
  let t: TestApp;

  before(async () => {
    fake = await startFakeOpenAiServer();
    // 127.0.0.2 is loopback too (Linux routes 127.0.0.0/8 there): another host, as far as URLs go.
    elsewhere = await startLoopbackHttpServer((request, response) => {
      response.setHeader('content-type', 'application/json');
      const { authorization = null, 'x-api-key': key = null } = request.headers;
      response.end(JSON.stringify({ landed: true, authorization, key }));
    }, '127.0.0.2');
    api = await startLoopbackHttpServer((request, response) => {
      const url = new URL(request.path, 'http://x');
      if (request.headers.authorization !== token) {
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end('{"error":"unauthorized"}');
        return;
      }
      response.setHeader('content-type', 'application/json');
      if (url.pathname === '/balance') response.end('{"balance":42}');
      else if (url.pathname === '/echo') response.end(JSON.stringify({ youSent: request.headers.authorization }));
      else if (url.pathname === '/away') {
        response.writeHead(302, { location: `${elsewhere.origin}/landing` });
        response.end();
      } else if (url.pathname === '/around') {
        response.writeHead(302, { location: '/balance' });
        response.end();
      } else response.end('{}');
    });
    t = await createTestApp({
      env: {
        AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
        AGENTD_DEFAULT_MODEL: 'openai-compatible/test-model',
        AGENTD_PROVIDER_RETRY_DELAY_MS: '1',
        // Loopback servers stand in for the outside world only where the operator allows private addresses.
        AGENTD_OUTBOUND_ALLOW_PRIVATE: 'true',
      },
      captureLogs: true,
    });
  });
  after(async () => {
    await t?.close();
    await fake?.close();
    await api?.close();
    await elsewhere?.close();
  });
  beforeEach(() => fake.reset());

  const agentWithSecretHeaders = () =>
    t.newAgent({
      plugins: [
        {
          name: 'http',
          // The loopback API is plain http on a port of its own: an origin written out, as a bare host is https only.
          config: { secretHeaders: { [api.origin]: { Authorization: 'apiToken', 'X-Api-Key': 'apiKey' } } },
          secrets: { apiToken: token, apiKey },
        },
      ],
    });

  /** Has the model call fetch_url on each URL in turn, then answer; the reply's tool calls. */
  async function fetchThroughModel(agentId: string, urls: string[]) {
    fake.enqueue({ toolCalls: urls.map((url) => ({ name: 'fetch_url', input: { url } })) }, { reply: 'Done.' });
    const response = await t.inject({
      method: 'POST',
      url: `/v1/agents/${agentId}/messages`,
      payload: { text: 'Go', userId: 'u1' },
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.ok(!response.body.includes(token), 'the reply never carries the secret');
    return response.json().toolCalls as Array<{
      output: { status: number; text: string; url: string };
      error?: string;
    }>;
  }

  function assertNeverShown(agentId: string) {
    const sent = JSON.stringify(fake.requests.map((request) => request.body));
    assert.ok(!sent.includes(token), 'no request to the provider carries the secret');
    assert.ok(!sent.includes('api-token'), 'nor a part of it');
    assert.ok(!sent.includes(apiKey), 'no request to the provider carries the key');
    assert.ok(!t.logs!.text().includes(token), 'the log never carries the secret');
    return t
      .inject({ method: 'GET', url: `/v1/agents/${agentId}/messages?userId=u1` })
      .then((history) => assert.ok(!history.body.includes(token), 'the stored turns never carry the secret'));
  }

  it('adds the secret header to requests to its host, without the model ever seeing it', async () => {
    const agent = await agentWithSecretHeaders();
    assert.ok(!JSON.stringify(agent).includes(token), 'the agent is shown with its secret masked');
    const [balance] = await fetchThroughModel(agent.id, [`${api.origin}/balance`]);
    assert.equal(balance!.output.status, 200, JSON.stringify(balance));
    assert.equal(balance!.output.text, '{"balance":42}');
    assert.equal(api.received.at(-1)!.headers.authorization, token);
    assert.equal(api.received.at(-1)!.headers['x-api-key'], apiKey);

    const offered = fake.requests[0]!.offeredTools.find((tool) => tool.name === 'fetch_url')!;
    assert.ok(offered.description?.includes(`${api.origin} carry their credentials`), offered.description);
    await assertNeverShown(agent.id);
  });

  it('sends nothing to other hosts, and drops the header when a redirect leads to another host', async () => {
    const agent = await agentWithSecretHeaders();
    const [direct, redirected, sameHost] = await fetchThroughModel(agent.id, [
      `${elsewhere.origin}/landing`,
      `${api.origin}/away`,
      `${api.origin}/around`,
    ]);
    assert.deepEqual(JSON.parse(direct!.output.text), { landed: true, authorization: null, key: null });
    assert.equal(redirected!.output.url, `${elsewhere.origin}/landing`);
    // X-Api-Key is no header a redirect drops by itself (as Authorization is): agentd must not have carried it on.
    assert.deepEqual(JSON.parse(redirected!.output.text), { landed: true, authorization: null, key: null });
    assert.equal(elsewhere.received.length, 2);
    for (const request of elsewhere.received) {
      assert.equal(request.headers.authorization, undefined);
      assert.equal(request.headers['x-api-key'], undefined);
    }
    assert.equal(sameHost!.output.text, '{"balance":42}', 'a redirect on the same host keeps it');
    await assertNeverShown(agent.id);
  });

  it('masks the secret when the server echoes it back', async () => {
    const agent = await agentWithSecretHeaders();
    const [echo] = await fetchThroughModel(agent.id, [`${api.origin}/echo`]);
    assert.equal(echo!.output.status, 200);
    assert.equal(JSON.parse(echo!.output.text).youSent, '••••', echo!.output.text);
    const result = fake.requests[1]!.toolResults[0]!.content;
    assert.ok(result.includes('••••'), result);
    await assertNeverShown(agent.id);
  });

  it('refuses a config that names a secret the entry does not have, at its pointer', async () => {
    const response = await t.inject({
      method: 'POST',
      url: '/v1/agents',
      payload: {
        name: 'Missing secret',
        plugins: [{ name: 'http', config: { secretHeaders: { 'api.example.com': { 'X-Api-Key': 'apiKey' } } } }],
      },
    });
    assert.equal(response.statusCode, 400, response.body);
    assert.equal(response.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.deepEqual(
      response.json().errors.map((error: { path: string }) => error.path),
      ['/body/plugins/0/config/secretHeaders/api.example.com/X-Api-Key'],
    );
  });
});
