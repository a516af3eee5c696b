// The owner's own test calls ("Call my line", issue 28) are shown in Call Logs, tagged, and left
// out of analytics (counters kept by migration 0015's triggers, the recent list) and usage.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { calls } from '../helpers/tables.js';
import { activeCustomer, signInAdmin } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('a test call', () => {
  it('is in Call Logs marked testCall, and in no analytics figure or usage count, through its whole life', async () => {
    const owner = await activeCustomer(server);
    const db = server.database.db;
    const row = (testCall: boolean) => ({ userId: owner.user.id, fromNumber: '+447700900123', toNumber: '+447700900801', status: 'voicemail' as const, duration: 30, createdAt: new Date(), testCall });
    const [real] = await db.insert(calls).values(row(false)).returning({ id: calls.id });
    const [test] = await db.insert(calls).values(row(true)).returning({ id: calls.id });
    // The post-call steps update the row later (urgency, texting): the counters must skip those too.
    await db.update(calls).set({ urgency: 'urgent', notificationSent: true, transcriptionStatus: 'done' }).where(eq(calls.id, test!.id));

    const logs = await owner.client.get('/api/call-logs');
    expect(logs.status).toBe(200);
    const byId = new Map(logs.body.callLogs.map((c: { id: number; testCall: boolean }) => [c.id, c.testCall]));
    expect(byId.get(real!.id)).toBe(false);
    expect(byId.get(test!.id)).toBe(true);

    const a = (await owner.client.get('/api/analytics')).body;
    expect(a.totalCalls).toBe(1);
    expect(a.thisMonthCalls).toBe(1);
    expect(a.recentCalls.map((c: { id: number }) => c.id)).toEqual([real!.id]);
    expect(a.urgencyBreakdown).toMatchObject({ calls: 1, urgent: 0 });

    const usage = (await (await signInAdmin(server)).get('/api/admin/static-usage')).body;
    expect(usage.calls.inbound.count).toBe(1);

    // Deleting it (erasure) leaves the counters as they were.
    await db.delete(calls).where(eq(calls.id, test!.id));
    expect((await owner.client.get('/api/analytics')).body.totalCalls).toBe(1);
  });
});
