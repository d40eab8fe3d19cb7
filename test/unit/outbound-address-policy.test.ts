import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { anyAddress, publicAddressesOnly } from '../../src/outbound/address-policy.js';

describe('the outbound address policy', () => {
  it('refuses every address that is not ordinary public unicast, naming why', () => {
    const refused: Array<[string, RegExp]> = [
      ['127.0.0.1', /loopback/],
      ['127.255.255.254', /loopback/],
      ['::1', /loopback/],
      ['10.0.0.1', /private/],
      ['172.16.0.1', /private/],
      ['172.31.255.255', /private/],
      ['192.168.1.1', /private/],
      ['169.254.169.254', /link-local/],
      ['fe80::1', /link-local/],
      ['fd00::1', /unique-local/],
      ['fc00::1', /unique-local/],
      ['0.0.0.0', /unspecified/],
      ['::', /unspecified/],
      ['224.0.0.1', /multicast/],
      ['ff02::1', /multicast/],
      ['255.255.255.255', /broadcast/],
      ['100.64.0.1', /carrier-grade NAT/],
      ['192.0.2.1', /reserved/],
      ['240.0.0.1', /reserved/],
      // IPv6 forms that carry an IPv4 address are judged by that address.
      ['::ffff:127.0.0.1', /loopback/],
      ['::ffff:169.254.169.254', /link-local/],
      ['::ffff:10.1.2.3', /private/],
      ['::127.0.0.1', /loopback/],
      ['64:ff9b::a00:1', /private/],
      ['2002:7f00:1::', /loopback/],
      ['2001:db8::1', /reserved/],
      ['not-an-address', /not an IP address/],
    ];
    for (const [address, reason] of refused) {
      const refusal = publicAddressesOnly(address);
      assert.ok(refusal !== null, `${address} must be refused`);
      assert.match(refusal, reason, address);
    }
  });

  it('allows public addresses, IPv4 inside IPv6 included', () => {
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '172.32.0.1',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
      '2002:808:808::',
    ]) {
      assert.equal(publicAddressesOnly(address), null, address);
    }
  });

  it('sees through the spellings the URL parser normalises to loopback', () => {
    for (const spelling of ['http://2130706433/', 'http://0x7f.1/', 'http://017700000001/', 'http://127.1/']) {
      const host = new URL(spelling).hostname;
      assert.match(publicAddressesOnly(host) ?? 'allowed', /loopback/, spelling);
    }
  });

  it('allows everything when private addresses are switched on', () => {
    assert.equal(anyAddress('127.0.0.1'), null);
    assert.equal(anyAddress('169.254.169.254'), null);
  });
});
