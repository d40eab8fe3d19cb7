import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { systemClock } from '../../src/clock.js';
import { createLogger } from '../../src/logger.js';
import { describeFailure } from '../../src/plugins/mcp/describe-failure.js';
import { PluginCatalog } from '../../src/plugins/catalog.js';
import { ToolError, type PluginDefinition, type Tool } from '../../src/plugins/plugin.js';
import { SecretMask, secretForms, withSecretsRedacted } from '../../src/plugins/redact-secrets.js';
import { AgentToolsets } from '../../src/plugins/toolsets.js';
import { SecretBox } from '../../src/security/secret-box.js';
import type { AgentRecord } from '../../src/storage/repositories/agents.js';
import { unusedPluginServices } from '../helpers/plugin-context.js';

/**
 * Masking a plugin entry's secrets in what its tools give back: each secret
 * in the forms a server may write it in, searched for in strings one by one,
 * and masked whole where a text is cut.
 */

const bearer = 'Bearer tok_live_5c1e9d7f20b3a8';
const credential = 'tok_live_5c1e9d7f20b3a8';
const basicPair = 'svc-user:pa55-w0rd-9e1f4b';
const basic = `Basic ${Buffer.from(basicPair).toString('base64')}`;
const oauth =
  'OAuth oauth_consumer_key="ck-7d2e90a4b1", oauth_token="at-3f81c6e05d", ' +
  'oauth_signature_method="HMAC-SHA1", oauth_timestamp="1700000000", oauth_signature="c2lnLWU0YjkxMGFm%3D"';

/** A tool that gives back what it is told to, as a careless server would. */
function echoTool(output: () => unknown): Tool {
  return { name: 'echo', description: 'Echo.', inputSchema: { type: 'object' }, execute: async () => output() };
}

const noSignal = { abortSignal: new AbortController().signal };

describe('a secret mask', () => {
  it('a secret is masked in part too: the credential after any auth scheme', () => {
    for (const scheme of ['Bearer', 'Token', 'Bot', 'Custom-Scheme']) {
      const mask = new SecretMask([`${scheme} ${credential}`]);
      assert.equal(mask.text(`{"token":"${credential}"}`), '{"token":"••••"}', scheme);
      assert.equal(mask.text(`auth: ${scheme} ${credential}.`), 'auth: ••••.', scheme);
    }
  });

  it('a secret is masked in part too: its JSON-escaped, URL-encoded and base64 forms', () => {
    const mask = new SecretMask([bearer]);
    assert.equal(mask.text(`?auth=${encodeURIComponent(bearer)}&x=1`), '?auth=••••&x=1');
    assert.equal(mask.text(new URLSearchParams({ auth: bearer }).toString()), 'auth=••••');
    assert.equal(mask.text(Buffer.from(bearer).toString('base64')), '••••');
    assert.equal(mask.text(Buffer.from(credential).toString('base64url')), '••••');
    const slashed = new SecretMask(['key/with/slashes-7e21']);
    assert.equal(slashed.text('{"k":"key\\/with\\/slashes-7e21"}'), '{"k":"••••"}', 'as PHP escapes a slash');
  });

  it('a secret is masked in part too: Basic credentials decoded, and their password', () => {
    const mask = new SecretMask([basic]);
    assert.equal(mask.text(`user and password: ${basicPair}`), 'user and password: ••••');
    assert.equal(mask.text('{"password":"pa55-w0rd-9e1f4b"}'), '{"password":"••••"}');
    assert.equal(mask.text(basic.slice('Basic '.length)), '••••');
    assert.equal(mask.text('user svc-user'), 'user svc-user', 'the user name is not a secret');
  });

  it('a secret is masked in part too: OAuth 1.0a parameters, as written and percent-decoded, but not the public ones', () => {
    const mask = new SecretMask([oauth]);
    assert.equal(mask.text('consumer ck-7d2e90a4b1, token at-3f81c6e05d'), 'consumer ••••, token ••••');
    assert.equal(mask.text('signature c2lnLWU0YjkxMGFm='), 'signature ••••');
    assert.equal(mask.text('signed with HMAC-SHA1 at 1700000000'), 'signed with HMAC-SHA1 at 1700000000');
  });

  it('a secret is masked in part too: but no part or form shorter than six characters', () => {
    const mask = new SecretMask(['Bearer abc12', 'short']);
    assert.equal(mask.text('abc12 and short'), 'abc12 and short');
    assert.equal(mask.text('Bearer abc12'), '••••');
    assert.ok(new SecretMask(['tiny']).empty);
  });

  it('a secret is masked in part too: as sent, without the whitespace a paste left around it', () => {
    const mask = new SecretMask(['sk_live_abcdef123456\n']);
    assert.equal(mask.text('auth=sk_live_abcdef123456;'), 'auth=••••;');
    assert.equal(new SecretMask([` ${bearer} `]).text(`{"token":"${credential}"}`), '{"token":"••••"}');
  });

  it('a secret is masked in part too: in base64 of a larger text, wherever it starts', () => {
    const secret = 'sk_live_abcdef123456';
    const mask = new SecretMask([secret]);
    for (const before of ['', 'x', 'xy', 'header: ', 'Authorization: Bearer ']) {
      for (const after of ['', '!', '\r\nAccept: */*']) {
        const encoded = Buffer.from(`${before}${secret}${after}`).toString('base64');
        const masked = mask.text(encoded);
        assert.notEqual(masked, encoded, `${JSON.stringify(before)} … ${JSON.stringify(after)}`);
        // What is left shows no more of the secret than the bits it shares with a neighbour's character.
        const shown = masked.split('••••').join('');
        assert.ok(shown.length <= encoded.length - Math.floor((secret.length * 8) / 6) + 2 + 8, masked);
      }
      for (const alphabet of ['base64url'] as const) {
        const encoded = Buffer.from(`${before}${secret}`).toString(alphabet);
        assert.notEqual(mask.text(encoded), encoded);
      }
    }
  });

  it('a secret is masked in part too: percent-encoded with lower-case hex', () => {
    const secret = 'tok/live+5c1e9d7f20b3a8';
    assert.equal(new SecretMask([secret]).text('?t=tok%2flive%2b5c1e9d7f20b3a8'), '?t=••••');
  });

  it('the forms searched for stay bounded, however long or many the secrets', () => {
    // 50 secrets of 10,000 characters (the most an entry takes), each of hundreds of auth-params of its own.
    const secrets = Array.from({ length: 50 }, (_, secret) => {
      const parameters = Array.from({ length: 400 }, (_, index) => `k${index}="v${secret}-${index}-zzzzzzzz"`);
      return `OAuth ${parameters.join(', ')}`.slice(0, 10_000);
    });
    const forms = secretForms(secrets);
    assert.ok(forms.length <= 50 * 200, `${forms.length} forms`);
    // A long secret is still masked as written.
    assert.equal(new SecretMask(secrets).text(`x${secrets[7]}x`), 'x••••x');
  });

  it('a secret with quotes or backslashes is masked: as is, and escaped in JSON', () => {
    const mask = new SecretMask([oauth, 'sig\\e29b7c3e91\\path']);
    assert.equal(mask.text(`sent: ${oauth}`), 'sent: ••••');
    assert.equal(mask.text(JSON.stringify({ echoed: oauth })), '{"echoed":"••••"}');
    assert.equal(mask.text(JSON.stringify({ echoed: 'sig\\e29b7c3e91\\path' })), '{"echoed":"••••"}');
  });

  it('a secret with quotes or backslashes is masked: in a tool’s output, its strings and keys one by one', async () => {
    const secret = 'pa"ss\\word-41c9';
    const [tool] = withSecretsRedacted(
      [echoTool(() => ({ [secret]: [secret, { nested: `x ${secret} y` }], text: JSON.stringify({ secret }) }))],
      [secret],
    );
    assert.deepEqual(await tool!.execute({}, noSignal), {
      '••••': ['••••', { nested: 'x •••• y' }],
      text: '{"secret":"••••"}',
    });
  });

  it('masks overlapping secrets as one, so neither shows a part of itself', () => {
    const mask = new SecretMask(['alpha-7f3e21', '7f3e21-omega']);
    assert.equal(mask.text('[alpha-7f3e21-omega]'), '[••••]');
  });

  it('a secret cut is masked: a secret that begins before the cut is masked whole', () => {
    const mask = new SecretMask([bearer]);
    const text = `padding ${credential} after`;
    for (let end = 0; end <= text.length; end += 1) {
      const head = mask.head(text, end);
      assert.ok(!head.includes('tok_'), `cut at ${end}: ${head}`);
      if (end > 'padding '.length) assert.equal(head, `padding ••••${' after'.slice(0, Math.max(0, end - 31))}`);
    }
    assert.ok(mask.marginBytes >= 3 * bearer.length, 'the margin holds the longest form, in any encoding');
  });

  it('gives back unchanged outputs as they are, and masks tool errors', async () => {
    const output = { status: 200, text: 'nothing secret here', list: [1, 'two'] };
    const [tool, failing] = withSecretsRedacted(
      [
        echoTool(() => output),
        echoTool(() => {
          throw new ToolError(`refused ${encodeURIComponent(bearer)}`);
        }),
      ],
      [bearer],
    );
    assert.equal(await tool!.execute({}, noSignal), output, 'no copy when nothing is found');
    await assert.rejects(failing!.execute({}, noSignal), { message: 'refused ••••' });
  });

  it('an MCP failure is masked in part too: the credential a server quotes in its error', () => {
    const error = new Error(`unauthorized token "${credential}"`);
    const message = describeFailure(error, 'https://tools.example/mcp', [bearer], 1000);
    assert.equal(message, 'The MCP server at https://tools.example/mcp could not be used: unauthorized token "••••"');
  });

  it('a plugin that cannot be opened is masked in part too: its reason shows no form of a secret', async () => {
    const failing: PluginDefinition = {
      name: 'failing',
      description: 'Fails to open, quoting its credentials as a server would.',
      configSchema: Type.Object({}),
      secretsSchema: Type.Object({ token: Type.String() }),
      async open(_config, secrets) {
        const token = (secrets as { token: string }).token;
        throw new Error(`the server refused ${JSON.stringify({ token: token.slice('Bearer '.length) })}`);
      },
    };
    const logger = createLogger('silent');
    const secretBox = new SecretBox(randomBytes(32));
    const agentId = 'agt_01ARZ3NDEKTSV4RRFFQ69G5FAV';
    const toolsets = new AgentToolsets({
      catalog: new PluginCatalog([failing]),
      secretBox,
      logger,
      contextFor: () => ({
        agentId,
        accountId: 'acc_01ARZ3NDEKTSV4RRFFQ69G5FAV',
        fetch: globalThis.fetch,
        searchKnowledge: async () => [],
        clock: systemClock,
        logger,
        ...unusedPluginServices,
      }),
    });
    const agent = {
      id: agentId,
      version: 1,
      profile: {
        plugins: [
          {
            name: 'failing',
            enabled: true,
            config: {},
            secrets: { token: { sealed: secretBox.seal(bearer, agentId) } },
          },
        ],
      },
    } as unknown as AgentRecord;
    try {
      const toolbox = await toolsets.toolboxFor(agent);
      assert.deepEqual(toolbox!.unavailable, [
        'the failing plugin\'s tools are unavailable: the server refused {"token":"••••"}',
      ]);
    } finally {
      await toolsets.close();
    }
  });
});
