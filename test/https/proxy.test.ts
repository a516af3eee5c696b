// The HTTPS proxy (issue 40 item 1) outside compose: Debian's caddy run by the image's own
// entrypoint on the shipped Caddyfile (deploy/caddy/), in front of the real core with the real
// Asterisk behind it, at a name that is not localhost (callkeeper.test, resolved to loopback by
// the clients). Clients stand on other loopback addresses (127.0.0.2, 127.0.0.3), so the
// address the core counts can be told from the proxy's (127.0.0.1).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls } from '../helpers/tables.js';
import { waitUntil } from '../helpers/wait.js';
import { realPbxAvailability, startRealPbx, type RealPbx } from '../pbx-real/harness.js';
import { freeTcpPort } from '../pbx-real/ports.js';
import { ownerWithLine } from '../call-my-line/owner-line.js';
import { connect, SipSocket, type Credentials } from '../call-my-line/sip-ws-client.js';
import { ensureConsoleBuilt } from '../e2e/support/build-console.js';
import { entrypointRefusal, lookup, request, selfMadeCertificate, SITE_HOST, startProxy, type Proxy } from './caddy.js';

const real = realPbxAvailability();
// A wrong password for a new address each time: only the per-address limit (20) is reached.
let tries = 0;
const wrong = () => ({ email: `nobody${++tries}@example.co.uk`, password: 'Wrong-pass1!' });

describe.skipIf(!real.ok)('the HTTPS proxy in front of the core', () => {
  let h: RealPbx;
  let proxy: Proxy;
  let ca: string;
  let coreUrl: string;
  beforeAll(async () => {
    const httpPort = await freeTcpPort();
    const httpsPort = await freeTcpPort();
    // The core as compose runs it: PUBLIC_URL the proxy's https:// address, trusting the proxy alone.
    h = await startRealPbx({ consoleDir: ensureConsoleBuilt(), env: { PUBLIC_URL: `https://${SITE_HOST}:${httpsPort}`, TRUST_PROXY: '127.0.0.1' } });
    coreUrl = h.server.url;
    proxy = await startProxy(new URL(coreUrl).host, { TLS_MODE: 'internal' }, { httpPort, httpsPort });
    ca = proxy.caRoot();
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    await h?.close();
  });

  it('redirects plain HTTP to HTTPS, path and query kept', async () => {
    const res = await request(`http://${SITE_HOST}:${proxy.httpPort}/dashboard/call-logs?page=2`);
    expect(res.status).toBe(308);
    expect(res.headers.location).toBe(`${proxy.url}/dashboard/call-logs?page=2`);
  });

  it('serves the console over HTTPS with a certificate of its local CA, and no HSTS', async () => {
    const res = await request(`${proxy.url}/`, { ca });
    expect(res.status).toBe(200);
    expect(res.body).toMatch(/<div id="root">/);
    expect(res.peerCertificate!.issuer.CN).toMatch(/^Caddy Local Authority/);
    // The core's own headers come through (its CSP); HSTS, which the core sets for an https://
    // PUBLIC_URL, is taken off while the certificate is the local CA's.
    expect(res.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(res.headers['strict-transport-security']).toBeUndefined();
    // Without the CA's root a client refuses the certificate.
    await expect(request(`${proxy.url}/`)).rejects.toThrow(/certificate/);
  });

  it('sets the session cookie Secure, and the session works through the proxy', async () => {
    const owner = await ownerWithLine(h.server, '+447700900611');
    const login = await request(`${proxy.url}/api/auth/login`, { ca, method: 'POST', body: { email: owner.email, password: owner.password } });
    expect(login.status).toBe(200);
    const cookies = login.headers['set-cookie']!;
    const session = cookies.find((c) => !c.startsWith('signed_in='))!;
    expect(session.split(';').map((p) => p.trim().toLowerCase())).toContain('secure');
    const me = await request(`${proxy.url}/api/auth/me`, { ca, headers: { cookie: session.split(';')[0]! } });
    expect(me.status).toBe(200);
    expect(JSON.parse(me.body).user.email).toBe(owner.email);
  });

  it('lets the core count the real client: one client blocked, another not; a client’s own X-Forwarded-For believed neither through the proxy nor directly', async () => {
    const viaProxy = (localAddress: string, headers: Record<string, string> = {}) =>
      request(`${proxy.url}/api/auth/login`, { ca, localAddress, method: 'POST', body: wrong(), headers });
    for (let i = 0; i < 20; i++) expect((await viaProxy('127.0.0.2')).status).toBe(401);
    expect((await viaProxy('127.0.0.2')).status).toBe(429);
    // Had the core counted the proxy's address, this client would be blocked too.
    expect((await viaProxy('127.0.0.3')).status).toBe(401);
    // The blocked client names another address: the proxy forwards the one it connected from.
    expect((await viaProxy('127.0.0.2', { 'x-forwarded-for': '198.51.100.7' })).status).toBe(429);
    // Straight to the core (not the proxy's address), its X-Forwarded-For is not believed either.
    const direct = await request(`${coreUrl}/api/auth/login`, { localAddress: '127.0.0.2', method: 'POST', body: wrong(), headers: { 'x-forwarded-for': '198.51.100.8' } });
    expect(direct.status).toBe(429);
  });

  it('passes the "Call my line" SIP WebSocket through: the call reaches the owner’s Stasis flow', async () => {
    const owner = await ownerWithLine(h.server, '+447700900612');
    const login = await request(`${proxy.url}/api/auth/login`, { ca, method: 'POST', body: { email: owner.email, password: owner.password } });
    const cookie = login.headers['set-cookie']!.find((c) => !c.startsWith('signed_in='))!.split(';')[0]!;
    const press = await request(`${proxy.url}/api/test-call`, { ca, method: 'POST', headers: { cookie, origin: proxy.url } });
    expect(press.status).toBe(200);
    const c = JSON.parse(press.body) as Credentials;
    const sip = await connect(proxy.url, c.wsPath, { origin: proxy.url, cookie }, { ca, lookup });
    if (!(sip instanceof SipSocket)) throw new Error(`upgrade refused with ${sip.refused}`);
    const call = await sip.invite(c, c.sipUri);
    expect(call.status).toBe(200);
    const row = await waitUntil(async () => {
      const r = (await h.server.database.db.select().from(calls).where(eq(calls.toNumber, owner.did)).limit(1))[0];
      if (!r) throw new Error('no call row yet');
      return r;
    }, 20_000);
    expect(row).toMatchObject({ userId: owner.user.id, testCall: true });
    call.hangUp();
    sip.close();
    await h.finishedRow(owner.did);
  });
});

describe('the proxy with the operator’s own certificate (TLS_MODE=files)', () => {
  let dir: string;
  let proxy: Proxy | undefined;
  let upstream: import('node:http').Server;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ck-proxy-files-'));
    // A stand-in for the core that sets what it sets for an https:// PUBLIC_URL: a session cookie and HSTS.
    const http = await import('node:http');
    upstream = http.createServer((req, res) => {
      res.setHeader('strict-transport-security', 'max-age=31536000');
      res.end(`hello ${req.headers['x-forwarded-proto']}`);
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    await proxy?.close();
    await new Promise((r) => upstream?.close(r));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves the given certificate with HSTS, and serves a replaced one after a reload', async () => {
    const first = selfMadeCertificate(dir, 'first');
    const cert = path.join(dir, 'live.crt');
    const key = path.join(dir, 'live.key');
    fs.copyFileSync(first.cert, cert);
    fs.copyFileSync(first.key, key);
    const address = upstream.address() as import('node:net').AddressInfo;
    proxy = await startProxy(`127.0.0.1:${address.port}`, { TLS_MODE: 'files', TLS_CERT_FILE: cert, TLS_KEY_FILE: key });
    const res = await request(`${proxy.url}/`, { ca: fs.readFileSync(first.cert, 'utf8') });
    expect(res.body).toBe('hello https');
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
    const second = selfMadeCertificate(dir, 'second');
    fs.copyFileSync(second.cert, cert);
    fs.copyFileSync(second.key, key);
    proxy.reload();
    const after = await waitUntil(() => request(`${proxy!.url}/`, { ca: fs.readFileSync(second.cert, 'utf8') }), 10_000);
    expect(after.body).toBe('hello https');
    expect(after.peerCertificate!.fingerprint256).not.toBe(res.peerCertificate!.fingerprint256);
  });

  it('refuses to start on a bad setting, saying what to change', () => {
    const bad = entrypointRefusal({ TLS_MODE: 'letsencrypt', PUBLIC_URL: 'https://box.example.co.uk' });
    expect(bad.status).toBe(64);
    expect(bad.stderr).toMatch(/TLS_MODE must be acme, internal or files \(got "letsencrypt"\)/);
    const plain = entrypointRefusal({ PUBLIC_URL: 'http://box.example.co.uk' });
    expect(plain.status).toBe(64);
    expect(plain.stderr).toMatch(/PUBLIC_URL must be the console's https:\/\/ address/);
    const lan = entrypointRefusal({ TLS_MODE: 'acme', PUBLIC_URL: `https://${SITE_HOST}` });
    expect(lan.status).toBe(64);
    expect(lan.stderr).toMatch(/TLS_MODE=acme needs a public DNS name .* use TLS_MODE=internal/);
    const missing = entrypointRefusal({ TLS_MODE: 'files', PUBLIC_URL: 'https://box.example.co.uk', TLS_CERT_FILE: path.join(dir, 'none.crt'), TLS_KEY_FILE: path.join(dir, 'none.key') });
    expect(missing.status).toBe(64);
    expect(missing.stderr).toMatch(/TLS_CERT_FILE=.* is not readable inside the proxy container/);
  });
});
