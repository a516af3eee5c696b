import { afterEach, describe, expect, it } from 'vitest';
import { activeCustomer } from '../helpers/accounts.js';
import { ApiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Issue 13 items 2 and 4: per-IP limits count the address the operator's proxy reports,
// never one the client writes itself, and failures from elsewhere never lock the owner out.

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A login attempt from `address` as the operator's reverse proxy would report it. */
const loginFrom = (s: TestServer, address: string | undefined, email: string, password: string) =>
  new ApiClient(s.url).request('POST', '/api/auth/login', { email, password }, address ? { 'x-forwarded-for': address } : {});

const TOO_MANY = /^Too many attempts\. Please wait \d+ minutes? and try again\.$/;

describe('client-chosen addresses (TRUST_PROXY off by default)', () => {
  it('a blocked client stays blocked when it writes a new X-Forwarded-For', async () => {
    server = await startTestServer();
    for (let i = 0; i < 20; i++) expect((await loginFrom(server, undefined, `u${i}@example.co.uk`, 'Wrong-pass1!')).status).toBe(401);
    const blocked = await loginFrom(server, undefined, 'another@example.co.uk', 'Wrong-pass1!');
    expect(blocked.status).toBe(429);
    const spoofed = await loginFrom(server, '203.0.113.77', 'another@example.co.uk', 'Wrong-pass1!');
    expect(spoofed.status).toBe(429);
    expect(spoofed.body.message).toMatch(TOO_MANY);
  });

  it('with TRUST_PROXY naming the proxy, the address it forwards is the one counted', async () => {
    server = await startTestServer({ env: { TRUST_PROXY: '127.0.0.1' } });
    for (let i = 0; i < 20; i++) expect((await loginFrom(server, '198.51.100.1', `u${i}@example.co.uk`, 'Wrong-pass1!')).status).toBe(401);
    expect((await loginFrom(server, '198.51.100.1', 'x@example.co.uk', 'Wrong-pass1!')).status).toBe(429);
    // Another client behind the same proxy is not the one that failed.
    expect((await loginFrom(server, '198.51.100.2', 'x@example.co.uk', 'Wrong-pass1!')).status).toBe(401);
  });
});

describe('lock-out is not a weapon', () => {
  it('five wrong passwords from one address block that address, while the owner signs in from another', async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'loopback' } });
    const { email, password } = await activeCustomer(server);
    for (let i = 0; i < 5; i++) expect((await loginFrom(server, '203.0.113.9', email, `wrong-${i}`)).status).toBe(401);
    const attacker = await loginFrom(server, '203.0.113.9', email, password);
    expect(attacker.status).toBe(429);
    expect(attacker.body.message).toMatch(TOO_MANY);
    expect(Number(attacker.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(attacker.headers.get('set-cookie')).toBeNull();
    const owner = await loginFrom(server, '192.0.2.10', email, password);
    expect(owner.status).toBe(200);
    expect(owner.body.user.email).toBe(email);
  });

  it('past the account’s ceiling, addresses that failed on it are refused and a clean address still gets in', async () => {
    // A small ceiling so the test stays quick: two addresses with four failures each reach it.
    server = await startTestServer({ env: { TRUST_PROXY: 'loopback' }, rateLimits: { loginFailuresPerAccount: { max: 8, windowMs: 60 * 60_000 } } });
    const { email, password } = await activeCustomer(server);
    for (const address of ['203.0.113.1', '203.0.113.2']) {
      for (let i = 0; i < 4; i++) expect((await loginFrom(server, address, email, `wrong-${i}`)).status).toBe(401);
    }
    // Under the per-address limit, but the account has seen enough failures from elsewhere.
    const failedBefore = await loginFrom(server, '203.0.113.1', email, password);
    expect(failedBefore.status).toBe(429);
    expect(failedBefore.body.message).toMatch(TOO_MANY);
    expect((await loginFrom(server, '192.0.2.10', email, password)).status).toBe(200);
  });
});
