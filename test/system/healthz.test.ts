import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../core/auth/sessions.js';
import { activeCustomer, signInAdmin } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { sqliteOf } from '../../core/db/client.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close().catch(() => undefined));

describe('/healthz', () => {
  // Issue 39: signed out it told anyone the calls in progress and Asterisk's address.
  const report = { ok: false, detail: '3 calls in progress on Asterisk at 10.0.0.7:8088' };

  it('signed out, says only ok in its status code and a minimal body', async () => {
    server.services.health.set('pbx', () => report);
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('{"status":"ok"}');
  });

  it('with a session that is not an administrator’s, or a made-up one, says no more', async () => {
    server.services.health.set('pbx', () => report);
    const owner = await activeCustomer(server);
    expect((await owner.client.get('/healthz')).text).toBe('{"status":"ok"}');
    const forged = await fetch(`${server.url}/healthz`, { headers: { cookie: `${SESSION_COOKIE}=not-a-session` } });
    expect(await forged.text()).toBe('{"status":"ok"}');
  });

  it('for an administrator, answers 200 with the database and every registered component', async () => {
    server.services.health.set('pbx', () => report);
    const admin = await signInAdmin(server);
    const res = await admin.get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', components: { database: { ok: true }, pbx: report } });
  });

  it('answers 503 when the database is unusable, signed in or not, and says only that', async () => {
    const admin = await signInAdmin(server);
    sqliteOf(server.database).close();
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(503);
    expect(await res.text()).toBe('{"status":"unavailable"}');
    const asAdmin = await admin.get('/healthz');
    expect({ status: asAdmin.status, body: asAdmin.body }).toEqual({ status: 503, body: { status: 'unavailable' } });
  });
});

describe('unknown API paths', () => {
  it('stay JSON 404s', async () => {
    const res = await fetch(`${server.url}/api/nothing-here`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as any).message).toBe('No route for GET /api/nothing-here');
  });
});
