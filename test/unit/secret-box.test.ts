import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { generateApiKey, hashApiKey } from '../../src/security/api-key-secret.js';
import { maskSecret, SecretBox } from '../../src/security/secret-box.js';

describe('secrets at rest', () => {
  const box = new SecretBox(randomBytes(32));

  it('round-trips and never stores the plaintext', () => {
    const sealed = box.seal('xoxb-very-secret', 'agt_1');
    assert.ok(!sealed.includes('very-secret'));
    assert.equal(box.open(sealed, 'agt_1'), 'xoxb-very-secret');
    assert.notEqual(box.seal('same', 'a'), box.seal('same', 'a'), 'a fresh nonce each time');
  });

  it('refuses a ciphertext moved to another agent or tampered with', () => {
    const sealed = box.seal('token', 'agt_1');
    assert.throws(() => box.open(sealed, 'agt_2'));
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}${sealed.slice(-1)}`;
    assert.throws(() => box.open(tampered, 'agt_1'));
    assert.throws(() => new SecretBox(randomBytes(32)).open(sealed, 'agt_1'));
  });

  it('masks with the last four characters, and short secrets completely', () => {
    assert.equal(maskSecret('123456:ABCDEF4f2a'), '••••4f2a');
    assert.equal(maskSecret('short'), '••••');
    assert.equal(maskSecret('elevenchars'), '••••');
  });
});

describe('API keys', () => {
  it('are agd_ and 40 base62 characters, different every time', () => {
    const keys = new Set(Array.from({ length: 100 }, generateApiKey));
    assert.equal(keys.size, 100);
    for (const key of keys) assert.match(key, /^agd_[0-9A-Za-z]{40}$/);
  });

  it('hash to a stable SHA-256 hex digest', () => {
    assert.equal(hashApiKey('agd_x'), hashApiKey('agd_x'));
    assert.match(hashApiKey('agd_x'), /^[0-9a-f]{64}$/);
  });
});
