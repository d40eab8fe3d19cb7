import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateApiKey, hashApiKey } from '../../src/security/api-key-secret.js';
import { authenticateNow, rememberedDigestCount } from '../../src/services/api-keys.js';
import type { ServiceDeps } from '../../src/services/context.js';
import type { ApiKeyIdentity } from '../../src/storage/repositories/api-keys.js';

/** Keys by digest, as the repository finds them; only what authentication reads of the dependencies. */
function keyStore() {
  const active = new Map<string, ApiKeyIdentity>();
  /** When each key's use was recorded (`lastUsedAt`), as the repository was asked to. */
  const uses: Array<[string, string]> = [];
  let now = Date.parse('2026-11-25T12:00:00Z');
  const deps = {
    clock: { now: () => now },
    logger: { warn: () => undefined },
    repositories: {
      apiKeys: {
        findActiveByHashNow: (hash: string) => active.get(hash) ?? null,
        recordUse: async (keyId: string, at: string) => void uses.push([keyId, at]),
      },
    },
  } as unknown as ServiceDeps;
  const issue = (index: number) => {
    const key = generateApiKey();
    active.set(hashApiKey(key), { id: `key_${index}`, accountId: `acc_${index}`, scopes: ['agents:read'] });
    return key;
  };
  return {
    deps,
    issue,
    uses,
    advance: (ms: number) => (now += ms),
    revoke: (key: string) => active.delete(hashApiKey(key)),
  };
}

describe('authenticating a presented key', () => {
  it('finds each key by its own digest, presented again and past the number of digests remembered', () => {
    const { deps, issue } = keyStore();
    const keys = Array.from({ length: 2500 }, (_, index) => issue(index));
    for (const round of [1, 2]) {
      keys.forEach((token, index) => {
        assert.equal(authenticateNow({ deps, token })?.keyId, `key_${index}`, `round ${round}, key ${index}`);
      });
    }
    assert.ok(rememberedDigestCount() <= 1024, `${rememberedDigestCount()} digests remembered`);
  });

  it("records a key's use at most once a minute, without waiting for the write", () => {
    const { deps, issue, uses, advance } = keyStore();
    const token = issue(7);
    for (let request = 0; request < 5; request += 1) authenticateNow({ deps, token });
    assert.deepEqual(uses, [['key_7', '2026-11-25T12:00:00.000Z']]);
    advance(59_000);
    authenticateNow({ deps, token });
    assert.equal(uses.length, 1);
    advance(1_000);
    authenticateNow({ deps, token });
    assert.deepEqual(uses.at(-1), ['key_7', '2026-11-25T12:01:00.000Z']);
  });

  it('refuses a revoked key at its next presentation, though its digest is remembered', () => {
    const { deps, issue, revoke } = keyStore();
    const token = issue(1);
    assert.equal(authenticateNow({ deps, token })?.keyId, 'key_1');
    revoke(token);
    assert.throws(() => authenticateNow({ deps, token }), { code: 'unauthorized' });
  });

  it('remembers no token that is not of a key’s form', () => {
    const { deps, issue } = keyStore();
    authenticateNow({ deps, token: issue(1) });
    const before = rememberedDigestCount();
    for (const token of ['x'.repeat(200), 'agd_short', `agd_${'a'.repeat(40)}!`]) {
      assert.throws(() => authenticateNow({ deps, token }), { code: 'unauthorized' });
    }
    assert.equal(rememberedDigestCount(), before);
  });
});
