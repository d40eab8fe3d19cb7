import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import type { FakeProviderServer } from '../helpers/fake-provider-server.js';
import { startLoopbackHttpServer, type LoopbackHttpServer } from '../helpers/loopback-http-server.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * What the http plugin's secrets look like when a server gives them back in
 * another form than they were stored in: the token without its scheme, URL-
 * or base64-encoded, escaped in JSON, or cut where the response is cut. The
 * model (the fake OpenAI-compatible server) asks for `fetch_url`; neither its
 * next prompt nor the reply nor the stored turns may carry any of it.
 */

const bearer = 'Bearer tok_live_5c1e9d7f20b3a8';
const basicUser = 'svc-user';
const basicPassword = 'pa55-w0rd-9e1f4b';
const basic = `Basic ${Buffer.from(`${basicUser}:${basicPassword}`).toString('base64')}`;
const oauth =
  'OAuth oauth_consumer_key="ck-7d2e90a4b1", oauth_token="at-3f81c6e05d", ' +
  'oauth_signature_method="HMAC-SHA1", oauth_signature="c2lnLWU0YjkxMGFm%3D"';
const backslashed = 'sig\\e29b7c3e91\\path';

/** Parts of the secrets that must never be seen, in none of their forms; none has a character JSON escapes. */
const neverSeen = [
  'tok_live_5c',
  '5c1e9d7f20b3a8',
  Buffer.from(bearer).toString('base64').slice(0, 24),
  Buffer.from('tok_live_5c1e9d7f20b3a8').toString('base64').slice(0, 24),
  Buffer.from(`${basicUser}:${basicPassword}`).toString('base64'),
  'pa55-w0rd',
  'ck-7d2e90a4b1',
  'at-3f81c6e05d',
  'c2lnLWU0YjkxMGFm',
  'e29b7c3e91',
];

const maxResponseBytes = 1024;
const toolOutputBytes = 2048;

describe('the http plugin’s secrets in what a server sends back', () => {
  let fake: FakeProviderServer;
  let api: LoopbackHttpServer;
  let t: TestApp;

  before(async () => {
    fake = await startFakeOpenAiServer();
    // The API the secrets are for, careless with them: it echoes them, in the forms each path asks for.
    api = await startLoopbackHttpServer((request, response) => {
      const url = new URL(request.path, 'http://x');
      const json = (value: unknown) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(value));
      };
      switch (url.pathname) {
        case '/parts':
          return json({
            token: 'tok_live_5c1e9d7f20b3a8',
            urlEncoded: `https://api.example/callback?auth=${encodeURIComponent(bearer)}`,
            formEncoded: new URLSearchParams({ auth: bearer }).toString(),
            base64: Buffer.from(bearer).toString('base64'),
            tokenBase64: Buffer.from('tok_live_5c1e9d7f20b3a8').toString('base64'),
            basicPair: `${basicUser}:${basicPassword}`,
            password: basicPassword,
            consumerKey: 'ck-7d2e90a4b1',
            oauthToken: 'at-3f81c6e05d',
            signature: 'c2lnLWU0YjkxMGFm=',
            user: basicUser,
          });
        case '/quoted':
          return json({ oauth, backslashed });
        case '/quoted-text':
          response.writeHead(200, { 'content-type': 'text/plain' });
          response.end(`You sent ${oauth} and ${backslashed}.`);
          return;
        case '/padded': {
          // Padding the caller chooses, so that a cut lands inside the token: what a reflected parameter allows.
          const before = Number(url.searchParams.get('before'));
          response.writeHead(200, { 'content-type': 'text/plain' });
          response.end(`${'x'.repeat(before)}tok_live_5c1e9d7f20b3a8 and the rest of the page`);
          return;
        }
        default:
          response.writeHead(404, { 'content-type': 'text/plain' });
          response.end('not found');
      }
    });
    t = await createTestApp({
      env: {
        AGENTD_OPENAI_COMPATIBLE_BASE_URL: fake.baseUrl,
        AGENTD_DEFAULT_MODEL: 'openai-compatible/test-model',
        AGENTD_PROVIDER_RETRY_DELAY_MS: '1',
        AGENTD_TOOL_OUTPUT_BYTES: String(toolOutputBytes),
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
  });
  beforeEach(() => fake.reset());

  const agentWithSecrets = (config: Record<string, unknown> = {}) =>
    t.newAgent({
      plugins: [
        {
          name: 'http',
          config: {
            ...config,
            secretHeaders: {
              [api.origin]: { Authorization: 'bearer', 'X-Upstream': 'basic', 'X-OAuth': 'oauth', 'X-Sig': 'sig' },
            },
          },
          secrets: { bearer, basic, oauth, sig: backslashed },
        },
      ],
    });

  /** Has the model call fetch_url on each path in turn, then answer; the outputs the reply shows. */
  async function fetchThroughModel(agentId: string, paths: string[]) {
    const urls = paths.map((path) => `${api.origin}${path}`);
    fake.enqueue({ toolCalls: urls.map((url) => ({ name: 'fetch_url', input: { url } })) }, { reply: 'Done.' });
    const response = await t.inject({
      method: 'POST',
      url: `/v1/agents/${agentId}/messages`,
      payload: { text: 'Go', userId: 'u1' },
    });
    assert.equal(response.statusCode, 200, response.body);
    const calls = response.json().toolCalls as Array<{ output: unknown; error?: string }>;
    assert.equal(calls.length, paths.length);
    for (const call of calls) assert.equal(call.error, undefined, call.error);
    return { outputs: calls.map((call) => call.output), reply: response.body };
  }

  /** The model's next prompt, the reply, the stored turns and the log carry none of the secrets' parts. */
  async function assertNeverShown(agentId: string, reply: string) {
    assert.equal(fake.requests.length, 2, 'the tool results went back to the model');
    const shown = {
      'the model’s next prompt': JSON.stringify(fake.requests.map((request) => request.body)),
      'the tool results sent to the model': fake.requests[1]!.toolResults.map((result) => result.content).join('\n'),
      'the reply': reply,
      'the stored turns': (await t.inject({ method: 'GET', url: `/v1/agents/${agentId}/messages?userId=u1` })).body,
      'the log': t.logs!.text(),
    };
    for (const [where, text] of Object.entries(shown)) {
      for (const part of neverSeen) assert.ok(!text.includes(part), `${where} shows ${part}`);
    }
  }

  it('a secret is masked in part too: the credential after its scheme, its URL, base64 and decoded Basic forms, and OAuth parameters', async () => {
    const agent = await agentWithSecrets();
    const { outputs, reply } = await fetchThroughModel(agent.id, ['/parts']);
    const output = outputs[0] as { status: number; text: string };
    assert.equal(output.status, 200);
    assert.equal(api.received.at(-1)!.headers.authorization, bearer, 'the API got its credentials');
    assert.deepEqual(JSON.parse(output.text), {
      token: '••••',
      urlEncoded: 'https://api.example/callback?auth=••••',
      formEncoded: 'auth=••••',
      base64: '••••',
      // Base64 is searched for without its padding, which depends on what follows the secret.
      tokenBase64: '••••=',
      basicPair: '••••',
      password: '••••',
      consumerKey: '••••',
      oauthToken: '••••',
      signature: '••••',
      // A user name is not a secret, and shorter than what is searched for.
      user: basicUser,
    });
    await assertNeverShown(agent.id, reply);
  });

  it('a secret with quotes or backslashes is masked: escaped in a JSON answer, and as is in a text one', async () => {
    const agent = await agentWithSecrets();
    const { outputs, reply } = await fetchThroughModel(agent.id, ['/quoted', '/quoted-text']);
    const [quoted, quotedText] = outputs as Array<{ text: string }>;
    assert.deepEqual(JSON.parse(quoted!.text), { oauth: '••••', backslashed: '••••' });
    assert.equal(quotedText!.text, 'You sent •••• and ••••.');
    await assertNeverShown(agent.id, reply);
  });

  it('a secret cut at maxResponseBytes is masked: the cut never shows its first characters, nor does the tool output cap', async () => {
    // The http plugin's own cap: the body is cut 12 characters into the token.
    const capped = await agentWithSecrets({ maxResponseBytes });
    const first = await fetchThroughModel(capped.id, [`/padded?before=${maxResponseBytes - 12}`]);
    const output = first.outputs[0] as { text: string; truncated: boolean };
    assert.equal(output.truncated, true);
    assert.equal(output.text.length, maxResponseBytes - 12 + '••••'.length);
    assert.equal(output.text.slice(-16), `${'x'.repeat(12)}••••`);
    await assertNeverShown(capped.id, first.reply);

    // The tool output cap (AGENTD_TOOL_OUTPUT_BYTES) cuts the output as the model reads it, as JSON: here inside
    // where the token was.
    fake.reset();
    const roomy = await agentWithSecrets({ maxResponseBytes: 8192 });
    const path = `/padded?before=${toolOutputBytes}`;
    const framing = JSON.stringify({ status: 200, url: `${api.origin}${path}`, contentType: 'text/plain', text: '' });
    const lead = framing.length - '"}'.length;
    const second = await fetchThroughModel(roomy.id, [`/padded?before=${toolOutputBytes - lead - 12}`]);
    const cut = second.outputs[0] as string;
    assert.match(cut, /\[truncated: the output was \d+ bytes; only the first 2048 are shown\]$/);
    await assertNeverShown(roomy.id, second.reply);
  });

  it('a secret cut at maxResponseBytes is masked: by the openapi plugin’s tools too', async () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 'Padded', version: '1.0.0' },
      security: [{ token: [] }],
      paths: {
        '/padded': {
          get: {
            operationId: 'getPadded',
            parameters: [{ name: 'before', in: 'query', required: true, schema: { type: 'integer' } }],
            responses: { '200': { description: 'Text.' } },
          },
        },
      },
      components: { securitySchemes: { token: { type: 'http', scheme: 'bearer' } } },
    };
    const agent = await t.newAgent({
      plugins: [
        {
          name: 'openapi',
          config: { document, baseUrl: api.origin, maxResponseBytes },
          secrets: { token: bearer.slice('Bearer '.length) },
        },
      ],
    });
    fake.enqueue({ toolCalls: [{ name: 'getPadded', input: { before: maxResponseBytes - 12 } }] }, { reply: 'Done.' });
    const response = await t.inject({
      method: 'POST',
      url: `/v1/agents/${agent.id}/messages`,
      payload: { text: 'Go', userId: 'u1' },
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(api.received.at(-1)!.headers.authorization, bearer, 'the API got its credentials');
    const output = response.json().toolCalls[0].output as { text: string; truncated: boolean };
    assert.equal(output.truncated, true);
    assert.equal(output.text.slice(-16), `${'x'.repeat(12)}••••`);
    await assertNeverShown(agent.id, response.body);
  });
});
