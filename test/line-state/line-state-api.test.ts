// The line's state over the API (issue 44): the owner's problems in plain words and the admin's
// parts with since when, from the PBX's health report (the ARI link's state, as /healthz reads
// it), the engine pools and the owner's last forwarding check. The browser side, with a real
// Asterisk stopped, is test/e2e/line-state.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { forwardingChecks } from '../helpers/tables.js';
import { activeCustomer, signInAdmin } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { waitUntil } from '../helpers/wait.js';
import { startOllamaDouble } from '../doubles/ollama/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('GET /api/line-state and /api/admin/line-state', () => {
  it('on a box without a PBX: no banner for the owner, but no test call either; the admin reads "Not set up"', async () => {
    server = await startTestServer();
    const owner = await activeCustomer(server);
    const res = await owner.client.get('/api/line-state');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ problems: [], testCallAvailable: false });
    expect((await owner.client.get('/api/admin/line-state')).status).toBe(403);

    const admin = await signInAdmin(server);
    const status = await admin.get<{ phoneSystem: { state: string; detail: string }; engines: { name: string; state: string; detail: string }[] }>('/api/admin/line-state');
    expect(status.status).toBe(200);
    expect(status.body.phoneSystem).toMatchObject({ name: 'Phone system', state: 'off', detail: 'Not set up on this box (ARI_URL is not set): calls are not answered' });
    // Nothing listens where Ollama is looked for: not "up" because nothing has failed yet (issue 57 item 7).
    await waitUntil(async () => {
      const engines = (await admin.get<{ engines: { name: string; state: string; detail: string }[] }>('/api/admin/line-state')).body.engines;
      expect(engines.find((e) => e.name === 'Language model (Ollama)')).toMatchObject({ state: 'down', detail: '0 of 1 server answering' });
    }, 30_000);
  });

  it('says an engine is up once it answered', async () => {
    const ollama = await startOllamaDouble();
    try {
      server = await startTestServer({ env: { OLLAMA_URL: ollama.url } });
      const admin = await signInAdmin(server);
      await waitUntil(async () => {
        const engines = (await admin.get<{ engines: { name: string; state: string; detail: string }[] }>('/api/admin/line-state')).body.engines;
        expect(engines.find((e) => e.name === 'Language model (Ollama)')).toMatchObject({ state: 'up', detail: '1 of 1 server answering' });
      }, 30_000);
    } finally {
      await server?.close();
      server = undefined;
      await ollama.close();
    }
  });

  it('says the line is down, and since when, while the ARI link is not connected; and up again once it is', async () => {
    server = await startTestServer({ env: { ARI_URL: 'http://127.0.0.1:9/ari', SUPPORT_NAME: 'Box Ops', SUPPORT_EMAIL: 'ops@example.co.uk' } });
    let connected = true;
    server.services.health.set('pbx', () => ({ ok: connected, detail: connected ? 'connected' : 'reconnecting (ECONNREFUSED)' }));
    const owner = await activeCustomer(server);
    const admin = await signInAdmin(server);
    expect((await owner.client.get('/api/line-state')).body).toEqual({ problems: [], testCallAvailable: true });

    connected = false;
    server.clock.offsetMs += 60_000;
    const before = server.services.now().getTime();
    const down = await owner.client.get<{ problems: { id: string; message: string; since: string }[]; testCallAvailable: boolean }>('/api/line-state');
    expect(down.body.testCallAvailable).toBe(false);
    expect(down.body.problems).toHaveLength(1);
    // Dated when the core first saw it down: this read.
    expect(down.body.problems[0]!.id).toBe('pbx-down');
    expect(Date.parse(down.body.problems[0]!.since)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(down.body.problems[0]!.since)).toBeLessThanOrEqual(server.services.now().getTime());
    expect(down.body.problems[0]!.message).toMatch(/^Your line is not answering calls: the phone system has been down since \d+ \w+, \d\d:\d\d\. Callers get no answer/);
    // The operator by name and contact (issue 57 item 7): SUPPORT_NAME and SUPPORT_EMAIL.
    expect(down.body.problems[0]!.message).toContain('Your operator, Box Ops (ops@example.co.uk), sees this on their status page; if it lasts, contact them.');
    const status = await admin.get<{ phoneSystem: { state: string; since: string; detail: string } }>('/api/admin/line-state');
    expect(status.body.phoneSystem).toEqual({ name: 'Phone system', state: 'down', since: down.body.problems[0]!.since, detail: 'Not connected to Asterisk: calls are not answered (reconnecting (ECONNREFUSED))' });

    // Still down a minute later: the same "since".
    server.clock.offsetMs += 60_000;
    expect((await admin.get<{ phoneSystem: { since: string } }>('/api/admin/line-state')).body.phoneSystem.since).toBe(down.body.problems[0]!.since);

    connected = true;
    const back = server.services.now().getTime();
    expect((await owner.client.get('/api/line-state')).body).toEqual({ problems: [], testCallAvailable: true });
    const up = (await admin.get<{ phoneSystem: { state: string; since: string } }>('/api/admin/line-state')).body.phoneSystem;
    expect(up.state).toBe('up');
    expect(Date.parse(up.since)).toBeGreaterThanOrEqual(back);
  });

  it('tells the owner their line was not forwarding when their last check did not reach the box, and not once a later check worked', async () => {
    server = await startTestServer();
    const owner = await activeCustomer(server);
    const other = await activeCustomer(server);
    const at = (m: number) => new Date(Date.parse('2026-11-20T10:00:00Z') + m * 60_000);
    const base = { userId: owner.user.id, did: '+447700900001', line: '+441632960001' };
    await server.database.db.insert(forwardingChecks).values({ ...base, state: 'not-reaching', startedAt: at(0), endsAt: at(1), finishedAt: at(1) });
    const res = await owner.client.get<{ problems: { id: string; message: string }[] }>('/api/line-state');
    expect(res.body.problems).toEqual([
      {
        id: 'not-forwarding',
        since: at(1).toISOString(),
        message: 'Your business line was not forwarding to us when you last checked (20 Nov, 10:01). Dial your forwarding code again from Phone Numbers, then press "Check my forwarding".',
      },
    ]);
    // Another owner's check is not theirs.
    expect((await other.client.get('/api/line-state')).body).toEqual({ problems: [], testCallAvailable: false });

    await server.database.db.insert(forwardingChecks).values({ ...base, state: 'works', condition: 'unanswered', startedAt: at(5), endsAt: at(6), finishedAt: at(5) });
    expect((await owner.client.get('/api/line-state')).body).toEqual({ problems: [], testCallAvailable: false });
  });
});
