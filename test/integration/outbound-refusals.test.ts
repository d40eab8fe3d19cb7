import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AddressPolicy } from '../../src/outbound/address-policy.js';
import { publicAddressesOnly } from '../../src/outbound/address-policy.js';
import type { HostResolver } from '../../src/outbound/guarded-lookup.js';
import { createOutboundFetch } from '../../src/outbound/outbound-fetch.js';
import { OutboundRefusedError } from '../../src/outbound/outbound-refused-error.js';
import { startLoopbackHttpServer, type LoopbackHttpServer } from '../helpers/loopback-http-server.js';

/** Names the tests resolve themselves; nothing here asks a real DNS server. */
const testNames: Record<string, string[]> = {
  'loopback.test': ['127.0.0.1'],
  'intranet.test': ['127.0.0.2'],
  'mixed.test': ['127.0.0.2', '127.0.0.1'],
};
const resolveTestNames: HostResolver = async (hostname) => {
  const addresses = testNames[hostname];
  if (addresses === undefined)
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: 4 }));
};
/** Stands in for the internet: 127.0.0.1 counts as public here, every other address as the strict default says. */
const loopbackOneIsPublic: AddressPolicy = (address) => (address === '127.0.0.1' ? null : publicAddressesOnly(address));

async function refusal(call: Promise<Response>): Promise<OutboundRefusedError> {
  try {
    const response = await call;
    assert.fail(`expected a refusal, got status ${response.status}`);
  } catch (error) {
    assert.ok(error instanceof OutboundRefusedError, `expected OutboundRefusedError, got ${String(error)}`);
    return error;
  }
}

describe('the outbound client refuses private addresses', () => {
  let internal: LoopbackHttpServer;
  let intranet: LoopbackHttpServer;
  let gateway: LoopbackHttpServer;

  before(async () => {
    internal = await startLoopbackHttpServer((_, response) => response.end('internal data'));
    intranet = await startLoopbackHttpServer((_, response) => response.end('intranet data'), '127.0.0.2');
    gateway = await startLoopbackHttpServer((request, response) => {
      const target = new URL(request.path, 'http://x').searchParams.get('to') ?? '/';
      response.writeHead(302, { location: target });
      response.end();
    });
  });
  after(async () => {
    await Promise.all([internal.close(), intranet.close(), gateway.close()]);
  });

  it('refuses loopback, private, link-local and metadata addresses, however they are written', async () => {
    const strict = createOutboundFetch({ allowPrivateAddresses: false, resolveHost: resolveTestNames });
    const port = internal.port;
    const cases: Array<[string, RegExp]> = [
      [`http://127.0.0.1:${port}/`, /127\.0\.0\.1: a loopback address/],
      [`http://[::1]:${port}/`, /\[::1\]: a loopback address/],
      [`http://[::ffff:127.0.0.1]:${port}/`, /loopback/],
      [`http://2130706433:${port}/`, /loopback/],
      [`http://0x7f.0.0.1:${port}/`, /loopback/],
      [`http://loopback.test:${port}/`, /loopback\.test: it resolves to a loopback address/],
      ['http://10.0.0.1/', /10\.0\.0\.1: a private address/],
      ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254: a link-local address/],
      ['http://[fd00::1]/', /unique-local/],
      ['file:///etc/passwd', /a file: URL: only http: and https:/],
      ['ftp://ftp.example.com/file', /a ftp: URL/],
    ];
    for (const [url, message] of cases) {
      // A bound, so a guard that let one through fails here instead of waiting on an unroutable address.
      const error = await refusal(strict(url, { signal: AbortSignal.timeout(5_000) }));
      assert.match(error.message, message, url);
    }
    assert.equal(internal.received.length, 0, 'no refused call reached the server');
  });

  it('refuses `localhost` through the system resolver', async () => {
    const strict = createOutboundFetch({ allowPrivateAddresses: false });
    const error = await refusal(strict(`http://localhost:${internal.port}/`));
    assert.match(error.message, /localhost: it resolves to a loopback address/);
    assert.equal(internal.received.length, 0);
  });

  it('never repeats the path, query or headers in the refusal', async () => {
    const strict = createOutboundFetch({ allowPrivateAddresses: false });
    const error = await refusal(
      strict(`http://127.0.0.1:${internal.port}/private?token=hunter2`, {
        headers: { authorization: 'Bearer hunter2' },
      }),
    );
    assert.ok(!error.message.includes('hunter2'), error.message);
    assert.ok(!error.message.includes('/private'), error.message);
  });

  it('refuses a redirect from a public host to a private one', async () => {
    const guarded = createOutboundFetch({
      allowPrivateAddresses: false,
      addressPolicy: loopbackOneIsPublic,
      resolveHost: resolveTestNames,
    });
    const before = intranet.received.length;
    for (const target of [`${intranet.origin}/`, `http://intranet.test:${intranet.port}/`]) {
      const error = await refusal(guarded(`${gateway.origin}/?to=${encodeURIComponent(target)}`));
      assert.match(error.message, /127\.0\.0\.2|intranet\.test/);
    }
    assert.equal(intranet.received.length, before, 'the private server was never reached');
    // The same redirect to an address the policy allows is followed: the refusal above is the address, not the redirect.
    const followed = await guarded(`${gateway.origin}/?to=${encodeURIComponent(`${internal.origin}/`)}`);
    assert.equal(await followed.text(), 'internal data');
  });

  it('connects only to the addresses it checked, resolving once per connection', async () => {
    let resolutions = 0;
    const counting: HostResolver = async (hostname) => {
      resolutions += 1;
      return resolveTestNames(hostname);
    };
    const guarded = createOutboundFetch({
      allowPrivateAddresses: false,
      addressPolicy: loopbackOneIsPublic,
      resolveHost: counting,
    });
    // A private server on the same port, so a connection to the unchecked address would be answered.
    const twin = await startLoopbackHttpServer((_, response) => response.end('twin data'), '127.0.0.2', internal.port);
    try {
      // mixed.test resolves to the private 127.0.0.2 first: that address is dropped and the checked one is used.
      const response = await guarded(`http://mixed.test:${internal.port}/`);
      assert.equal(await response.text(), 'internal data');
      assert.equal(resolutions, 1);
      assert.equal(twin.received.length, 0);
    } finally {
      await twin.close();
    }
  });

  it('reaches loopback servers when private addresses are switched on', async () => {
    const open = createOutboundFetch({ allowPrivateAddresses: true });
    for (const url of [`${internal.origin}/`, `http://localhost:${internal.port}/`]) {
      const response = await open(url);
      assert.equal(response.status, 200);
      assert.equal(await response.text(), 'internal data');
    }
    await refusal(open('file:///etc/passwd'));
  });
});
