import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close().catch(() => undefined));

describe('/healthz', () => {
  it('answers 200 with the database and registered components when ready', async () => {
    server.services.health.set('pbx', () => ({ ok: false, detail: 'not configured' }));
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect((await res.json()) as any).toEqual({
      status: 'ok',
      components: { database: { ok: true }, pbx: { ok: false, detail: 'not configured' } },
    });
  });

  it('answers 503 when the database is unusable', async () => {
    server.database.sqlite.close();
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(503);
    expect(((await res.json()) as any).status).toBe('unavailable');
  });
});

describe('unknown API paths', () => {
  it('stay JSON 404s', async () => {
    const res = await fetch(`${server.url}/api/nothing-here`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as any).message).toBe('No route for GET /api/nothing-here');
  });
});
