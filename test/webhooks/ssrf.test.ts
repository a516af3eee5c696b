// The SSRF guard as production runs it (no test seam): literal addresses, names resolving to
// private addresses through a stubbed resolver, IPv6 and IPv4-mapped forms, and the clear 400
// an owner gets from PUT /api/user/webhook.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerWebhooks } from '../helpers/tables.js';
import { checkedAddress, refusedRange, type ResolvedAddress } from '../../core/webhooks/address-guard.js';
import { activeCustomer } from '../helpers/accounts.js';
import type { ApiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('refusedRange: only public unicast addresses may receive webhooks', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.10', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['203.0.113.10', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fe80::1', 'link-local'],
    ['64:ff9b::a00:1', 'reserved (rfc6052)'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:7f00:1', 'loopback'],
    ['::7f00:1', 'loopback'],
    ['::127.0.0.1', 'loopback'],
    ['::a00:1', 'private'],
    ['::a9fe:a9fe', 'link-local'],
    ['::0.0.0.2', 'unspecified'],
  ])('%s is refused as %s', (address, range) => {
    expect(refusedRange(address)).toBe(range);
  });

  it.each(['8.8.8.8', '93.184.216.34', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1', '192.169.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '::808:808'])(
    '%s (public) is allowed',
    (address) => {
      expect(refusedRange(address)).toBeNull();
    },
  );

  it('the test seam lets loopback through and nothing else', () => {
    expect(refusedRange('127.0.0.1', { allowLoopback: true })).toBeNull();
    expect(refusedRange('10.0.0.1', { allowLoopback: true })).toBe('private');
    expect(refusedRange('169.254.169.254', { allowLoopback: true })).toBe('link-local');
  });
});

const stub =
  (answers: Record<string, string[]>) =>
  async (host: string): Promise<ResolvedAddress[]> => {
    const list = answers[host];
    if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('checkedAddress: every address a name resolves to is checked', () => {
  const resolver = stub({
    'hooks.example': ['93.184.216.34'],
    'internal.example': ['10.0.0.5'],
    'mixed.example': ['93.184.216.34', '192.168.0.2'],
    'v6-private.example': ['2606:4700::1', 'fd00::5'],
    'mapped.example': ['::ffff:127.0.0.1'],
    'metadata.example': ['169.254.169.254'],
  });

  it('returns the address to connect to for a public name', async () => {
    await expect(checkedAddress('hooks.example', { resolver })).resolves.toEqual({ address: '93.184.216.34', family: 4 });
  });

  it.each([
    ['internal.example', 'internal.example resolves to 10.0.0.5, a private address'],
    ['mixed.example', 'mixed.example resolves to 192.168.0.2, a private address'],
    ['v6-private.example', 'v6-private.example resolves to fd00::5, a private address'],
    ['mapped.example', 'mapped.example resolves to ::ffff:127.0.0.1, a loopback address'],
    ['metadata.example', 'metadata.example resolves to 169.254.169.254, a link-local address'],
  ])('refuses %s', async (host, detail) => {
    await expect(checkedAddress(host, { resolver })).rejects.toMatchObject({ name: 'RefusedAddressError', detail, retryable: false });
  });

  it('takes a bracketed IPv6 literal without asking DNS', async () => {
    const never = async () => {
      throw new Error('DNS must not be asked for a literal');
    };
    await expect(checkedAddress('[::1]', { resolver: never })).rejects.toMatchObject({ detail: '::1 is a loopback address' });
    await expect(checkedAddress('[2606:4700::1111]', { resolver: never })).resolves.toEqual({ address: '2606:4700::1111', family: 6 });
  });

  it('a name that does not resolve is reported as such (retryable at delivery)', async () => {
    await expect(checkedAddress('nowhere.example', { resolver })).rejects.toMatchObject({ name: 'UnresolvableHostError', retryable: true });
  });
});

describe('PUT /api/user/webhook refuses with a clear 400', () => {
  let server: TestServer;
  let owner: ApiClient;
  beforeAll(async () => {
    const names = stub({ 'hooks.example': ['93.184.216.34'], 'internal.example': ['10.0.0.5'], 'rebind.example': ['93.184.216.35', '127.0.0.1'] });
    server = await startTestServer({
      // The real guard; only the resolver is stubbed (and `localhost` goes to the system's).
      webhooks: { resolver: (host) => (host === 'localhost' ? import('../../core/webhooks/address-guard.js').then((m) => m.systemResolver(host)) : names(host)) },
    });
    ({ client: owner } = await activeCustomer(server));
  });
  afterAll(() => server.close());

  const put = (url: unknown) => owner.request('PUT', '/api/user/webhook', { url });

  it.each([
    ['http://hooks.example/catch', 'Webhook URL must start with https://'],
    ['ftp://hooks.example/catch', 'Webhook URL must start with https://'],
    ['not a url', 'Webhook URL is not a valid web address, e.g. https://hooks.zapier.com/hooks/catch/123/abc/'],
    ['https://user:pass@hooks.example/catch', 'Webhook URL must not contain a user name or password'],
    [`https://hooks.example/${'a'.repeat(2000)}`, 'Webhook URL must be at most 2,000 characters'],
    ['https://127.0.0.1/hook', 'Webhook URL must point to a public internet address: 127.0.0.1 is a loopback address'],
    ['https://0x7f.1/hook', 'Webhook URL must point to a public internet address: 127.0.0.1 is a loopback address'],
    ['https://10.1.2.3/hook', 'Webhook URL must point to a public internet address: 10.1.2.3 is a private address'],
    ['https://169.254.169.254/latest/meta-data', 'Webhook URL must point to a public internet address: 169.254.169.254 is a link-local address'],
    ['https://100.64.1.1/hook', 'Webhook URL must point to a public internet address: 100.64.1.1 is a carrier-grade NAT address'],
    ['https://[::1]/hook', 'Webhook URL must point to a public internet address: ::1 is a loopback address'],
    ['https://[fe80::1]/hook', 'Webhook URL must point to a public internet address: fe80::1 is a link-local address'],
    ['https://[fd00::1]/hook', 'Webhook URL must point to a public internet address: fd00::1 is a private address'],
    ['https://[::ffff:127.0.0.1]/hook', 'Webhook URL must point to a public internet address: ::ffff:7f00:1 is a loopback address'],
    ['https://[::127.0.0.1]/hook', 'Webhook URL must point to a public internet address: ::7f00:1 is a loopback address'],
    ['https://[::10.0.0.1]/hook', 'Webhook URL must point to a public internet address: ::a00:1 is a private address'],
    ['https://[::169.254.169.254]/hook', 'Webhook URL must point to a public internet address: ::a9fe:a9fe is a link-local address'],
    ['https://[::ffff:192.168.1.1]/hook', 'Webhook URL must point to a public internet address: ::ffff:c0a8:101 is a private address'],
    ['https://internal.example/hook', 'Webhook URL must point to a public internet address: internal.example resolves to 10.0.0.5, a private address'],
    ['https://rebind.example/hook', 'Webhook URL must point to a public internet address: rebind.example resolves to 127.0.0.1, a loopback address'],
    ['https://localhost:3000/hook', expect.stringMatching(/^Webhook URL must point to a public internet address: localhost resolves to (127\.0\.0\.1|::1), a loopback address$/)],
    ['https://nowhere.example/hook', "Webhook URL's host nowhere.example could not be found"],
    [42, 'Webhook URL must be an https:// address, or null to turn webhooks off'],
  ])('%s → 400', async (url, message) => {
    const res = await put(url);
    expect(res.status).toBe(400);
    expect(res.body.message).toEqual(message);
    // Nothing refused is stored.
    expect((await owner.get('/api/user/webhook')).body.url).toBeNull();
  });

  it('whatever body is sent, the answer is never a 5xx and a refusal stores nothing', async () => {
    const stored = async () =>
      JSON.stringify(await server.database.db.select({ url: ownerWebhooks.url, secret: ownerWebhooks.secret }).from(ownerWebhooks).orderBy(ownerWebhooks.userId));
    const url = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.webUrl({ validSchemes: ['https', 'http'] }),
      fc.constantFrom('https://', 'https://[::]/', 'https://%00/', 'https://hooks.example:99999/', 'https://[fe80::1%25eth0]/', null),
      fc.integer(),
      fc.anything({ maxDepth: 1 }),
    );
    const body = fc.oneof(fc.record({ url }), fc.dictionary(fc.constantFrom('url', 'secret', '__proto__'), url, { maxKeys: 2 }), fc.anything({ maxDepth: 1 }));
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const before = await stored();
        const res = await owner.request('PUT', '/api/user/webhook', b);
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) {
          expect(typeof res.body?.message).toBe('string');
          expect(await stored()).toBe(before);
        }
      }),
      { numRuns: 80 },
    );
    await put(null);
  });

  it('a public https URL is saved (normalised), and null turns it off', async () => {
    const res = await put('  https://hooks.example/catch/1#frag ');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: 'Webhook saved', webhook: { url: 'https://hooks.example/catch/1' } });
    expect((await put(null)).body).toMatchObject({ message: 'Webhook turned off', webhook: { url: null } });
  });
});
