import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeCustomer } from '../helpers/accounts.js';
import { ApiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Issue 13 items 5 and 6: security headers on every answer, no caching of the API, and
// the /api guards meeting a route however its URL is spelt.

let server: TestServer;
let owner: Awaited<ReturnType<typeof activeCustomer>>;
beforeAll(async () => {
  server = await startTestServer();
  owner = await activeCustomer(server);
});
afterAll(() => server.close());

const get = (path: string, cookie?: string | null) => fetch(server.url + path, { headers: cookie ? { cookie } : {} });

describe('security headers (@fastify/helmet)', () => {
  it.each(['/api/auth/me', '/healthz', '/reset-password/abc'])('%s carries the CSP, nosniff, no-referrer and frame denial', async (path) => {
    const res = await get(path, owner.client.cookie);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("media-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    // Plain http: no HSTS.
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('adds HSTS (and upgrades insecure requests) only when PUBLIC_URL is https', async () => {
    const https = await startTestServer({ env: { PUBLIC_URL: 'https://calls.example.co.uk' } });
    try {
      const res = await fetch(`${https.url}/healthz`);
      expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000');
      expect(res.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
    } finally {
      await https.close();
    }
  });

  it.each(['/api/auth/me', '/api/user/export', '/api/call-logs', '/api/nothing-here'])(
    'answers %s with Cache-Control: no-store',
    async (path) => {
      const res = await get(path, owner.client.cookie);
      expect(res.headers.get('cache-control')).toBe('no-store');
    },
  );

  it('the export is still a download of the owner’s data', async () => {
    const res = await get('/api/user/export', owner.client.cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(((await res.json()) as { account: { email: string } }).account.email).toBe(owner.email);
  });
});

describe('guards decide on the route, not on the raw URL', () => {
  const crossSite = { 'content-type': 'text/plain', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };

  it('POST /%61pi/auth/logout from another site as text/plain is refused and the session survives', async () => {
    const { client } = await activeCustomer(server);
    const res = await fetch(`${server.url}/%61pi/auth/logout`, { method: 'POST', headers: { ...crossSite, cookie: client.cookie! }, body: '{}' });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { message: string }).message).toBe('Requests must be sent as JSON (Content-Type: application/json).');
    expect((await client.get('/api/auth/me')).status).toBe(200);
  });

  it('POST /%61pi/auth/logout as JSON from a foreign Origin is refused too', async () => {
    const { client } = await activeCustomer(server);
    const res = await fetch(`${server.url}/%61pi/auth/logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example', cookie: client.cookie! },
      body: '{}',
    });
    expect(res.status).toBe(403);
    expect((await client.get('/api/auth/me')).status).toBe(200);
  });

  it('the session hook meets an encoded path as well: GET /%61pi/auth/me knows the owner', async () => {
    const res = await get('/%61pi/auth/me', owner.client.cookie);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { user: { email: string } }).user.email).toBe(owner.email);
  });

  it('a same-origin JSON logout still works', async () => {
    const { client } = await activeCustomer(server);
    const cookie = client.cookie!;
    const res = await client.request('POST', '/api/auth/logout', {}, { origin: server.url });
    expect(res.status).toBe(200);
    expect((await new ApiClient(server.url).request('GET', '/api/auth/me', undefined, { cookie })).status).toBe(401);
  });
});
