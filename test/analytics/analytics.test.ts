import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { bstInterval, londonDayNumber, londonOffsetMs } from '../../core/time/london-time.js';
import { computeAnalytics } from '../../core/analytics/queries.js';
import { insertUser } from '../../core/accounts/users.js';
import { type Call } from '../../core/db/schema.js';
import { calls, callHourStats, callStats, users } from '../helpers/tables.js';
import { ApiClient } from '../helpers/client.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { transaction } from '../../core/db/transaction.js';

let server: TestServer;
let owner: Awaited<ReturnType<typeof activeCustomer>>;
let other: Awaited<ReturnType<typeof activeCustomer>>;

/** Sets the server clock to `iso`. */
const setNow = (iso: string) => (server.clock.offsetMs = Date.parse(iso) - Date.now());

type Fixture = Partial<Call> & { at: string; status: Call['status'] };
async function insert(userId: number, f: Fixture): Promise<number> {
  const { at, ...rest } = f;
  const [row] = await server.database.db
    .insert(calls)
    .values({ userId, fromNumber: '+447700900123', toNumber: '+447700900001', duration: 0, ...rest, createdAt: new Date(at) })
    .returning({ id: calls.id });
  return row!.id;
}

// Hand-computed: UK clocks go forward at 01:00 UTC on 29 March 2026 and back at 01:00 UTC on 25 October 2026.
const FIXTURES: Fixture[] = [
  /* 1 */ { at: '2026-03-28T23:30:00Z', status: 'voicemail', duration: 60, transcriptionStatus: 'done', notificationSent: true }, // GMT 23:30, 28 Mar
  /* 2 */ { at: '2026-03-29T00:30:00Z', status: 'missed', notificationSent: true }, // GMT 00:30, 29 Mar
  /* 3 */ { at: '2026-03-29T01:30:00Z', status: 'answered', duration: 120, transcriptionStatus: 'failed', notificationError: 'SMS: bad number' }, // BST 02:30, 29 Mar
  /* 4 */ { at: '2026-10-24T23:30:00Z', status: 'voicemail', duration: 30, transcriptionStatus: 'done', notificationSent: true }, // BST 00:30, 25 Oct
  /* 5 */ { at: '2026-10-25T00:30:00Z', status: 'missed' }, // BST 01:30, 25 Oct (first 01:30)
  /* 6 */ { at: '2026-10-25T01:30:00Z', status: 'voicemail', duration: 90, transcriptionStatus: 'pending' }, // GMT 01:30, 25 Oct (second 01:30)
  /* 7 */ { at: '2026-10-01T00:30:00Z', status: 'answered', duration: 45 }, // BST 01:30, 1 Oct
  /* 8 */ { at: '2026-09-30T23:30:00Z', status: 'missed' }, // BST 00:30, 1 Oct: this month
  /* 9 */ { at: '2026-09-30T22:30:00Z', status: 'voicemail', duration: 15 }, // BST 23:30, 30 Sep: last month
];
const ids: number[] = [];

beforeAll(async () => {
  server = await startTestServer();
  owner = await activeCustomer(server);
  other = await activeCustomer(server);
  for (const f of FIXTURES) ids.push(await insert(owner.user.id, f));
  await insert(other.user.id, { at: '2026-10-25T00:30:00Z', status: 'answered', duration: 600, transcriptionStatus: 'failed' });
});
afterAll(() => server.close());

describe('GET /api/analytics', () => {
  it('computes every figure in London days and hours across both 2026 clock changes', async () => {
    setNow('2026-10-31T12:00:00Z');
    const res = await owner.client.get('/api/analytics');
    expect(res.status).toBe(200);
    const a = res.body;
    expect(a).toMatchObject({
      totalCalls: 9,
      thisMonthCalls: 5, // 4, 5, 6, 7, 8: October began at 23:00 UTC on 30 September
      avgDuration: 40, // 360 s / 9
      missedCallRate: 33.3, // 3 / 9
      statusBreakdown: { missed: 3, answered: 2, voicemail: 4 },
      notificationSuccessRate: 75, // sent 1, 2, 4 of outcomes 1, 2, 3, 4
      transcriptionSuccessRate: 66.7, // done 1, 4 of done-or-failed 1, 3, 4
    });
    const hours = Object.fromEntries(Object.entries(a.peakHours as Record<string, number>).filter(([, n]) => n > 0));
    expect(hours).toEqual({ '23': 2, '0': 3, '1': 3, '2': 1 });
    expect(Object.keys(a.peakHours)).toHaveLength(24);

    const days = Object.keys(a.callsPerDay);
    expect(days).toHaveLength(30);
    expect([days[0], days.at(-1)]).toEqual(['2026-10-02', '2026-10-31']);
    expect(Object.fromEntries(Object.entries(a.callsPerDay as Record<string, number>).filter(([, n]) => n > 0))).toEqual({ '2026-10-25': 3 });

    expect(a.recentCalls.map((c: { id: number }) => c.id)).toEqual([6, 5, 4, 7, 8, 9, 3, 2, 1].map((n) => ids[n - 1]));
    expect(a.recentCalls[0]).toEqual({ id: ids[5], fromNumber: '+447700900123', status: 'voicemail', duration: 90, createdAt: '2026-10-25T01:30:00.000Z' });
  });

  it('counts the spring change days by London date', async () => {
    setNow('2026-04-05T12:00:00Z');
    const a = (await owner.client.get('/api/analytics')).body;
    expect(Object.fromEntries(Object.entries(a.callsPerDay as Record<string, number>).filter(([, n]) => n > 0))).toEqual({
      '2026-03-28': 1,
      '2026-03-29': 2,
    });
    expect(a.thisMonthCalls).toBe(0);
  });

  it('shows each business only its own calls', async () => {
    setNow('2026-10-31T12:00:00Z');
    const a = (await other.client.get('/api/analytics')).body;
    expect(a).toMatchObject({ totalCalls: 1, avgDuration: 600, statusBreakdown: { missed: 0, answered: 1, voicemail: 0 }, transcriptionSuccessRate: 0 });
    expect(a.recentCalls).toHaveLength(1);
  });

  it('answers zeros, not errors, for a business without calls', async () => {
    const fresh = await activeCustomer(server);
    const a = (await fresh.client.get('/api/analytics')).body;
    expect(a).toMatchObject({ totalCalls: 0, thisMonthCalls: 0, avgDuration: 0, missedCallRate: 0, notificationSuccessRate: 0, transcriptionSuccessRate: 0, recentCalls: [] });
    expect(Object.values(a.peakHours).every((n) => n === 0)).toBe(true);
  });

  it('requires a signed-in user', async () => {
    expect((await new ApiClient(server.url).get('/api/analytics')).status).toBe(401);
  });
});

describe('urgency in analytics', () => {
  // Hand-computed for Saturday 31 October 2026 (GMT since the 25th): last 7 days = 25–31 Oct,
  // last 30 days = 2–31 Oct, this month = 1–31 Oct, all time; London days throughout.
  it('counts urgent, normal and low calls over the chosen period, calls not assessed apart', async () => {
    const me = await activeCustomer(server);
    const at = (iso: string, urgency: Call['urgency'], status: Call['status'] = 'voicemail') => insert(me.user.id, { at: iso, status, urgency });
    await at('2026-10-31T09:00:00Z', 'urgent');
    await at('2026-10-25T00:30:00Z', 'normal'); // 01:30 BST on the 25th
    await at('2026-10-24T22:30:00Z', 'low'); // 23:30 BST on the 24th: not in the last 7 days
    await at('2026-10-01T00:30:00Z', 'urgent'); // 1 October: this month, not the last 30 days
    await at('2026-09-30T23:30:00Z', null, 'missed'); // 00:30 BST on 1 October
    await at('2026-09-30T22:30:00Z', 'normal'); // 23:30 BST on 30 September: all time only
    const pending = await at('2026-10-30T10:00:00Z', null);
    await insert(other.user.id, { at: '2026-10-31T09:00:00Z', status: 'voicemail', urgency: 'urgent' });
    setNow('2026-10-31T12:00:00Z');

    const breakdown = async (query = '') => (await me.client.get(`/api/analytics${query}`)).body.urgencyBreakdown;
    expect(await breakdown('?period=7d')).toEqual({ period: '7d', calls: 3, urgent: 1, normal: 1, low: 0, unassessed: 1 });
    expect(await breakdown('?period=30d')).toEqual({ period: '30d', calls: 4, urgent: 1, normal: 1, low: 1, unassessed: 1 });
    expect(await breakdown('?period=month')).toEqual({ period: 'month', calls: 6, urgent: 2, normal: 1, low: 1, unassessed: 2 });
    expect(await breakdown('?period=all')).toEqual({ period: 'all', calls: 7, urgent: 2, normal: 2, low: 1, unassessed: 2 });
    expect(await breakdown()).toEqual(await breakdown('?period=all'));

    // The summary step judges the pending call later: the counters follow the update.
    await server.database.db.update(calls).set({ urgency: 'urgent' }).where(eq(calls.id, pending));
    expect(await breakdown('?period=7d')).toEqual({ period: '7d', calls: 3, urgent: 2, normal: 1, low: 0, unassessed: 0 });
  });

  it('refuses an unknown period with a clear message', async () => {
    for (const query of ['?period=week', '?period=', '?period=7d&period=30d']) {
      const res = await owner.client.get(`/api/analytics${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.message).toBe('period must be one of 7d, 30d, month, all');
    }
  });
});

describe('call_stats and call_hour_stats triggers', () => {
  const freshOwner = async () => (await insertUser(server.database.db, { email: `t-${Math.random().toString(36).slice(2)}@example.co.uk`, passwordHash: 'x', accountStatus: 'active' })).id;
  const figures = (userId: number) => computeAnalytics(server.database.db, userId, new Date('2026-10-31T12:00:00Z'));

  it('file each call under the same London day and hour as the TypeScript rule, every 15 minutes around the changes', async () => {
    const userId = await freshOwner();
    const expected = new Map<string, number>();
    const expectedHours = new Map<number, number>();
    const insertAll = () => transaction(server.database.db, async () => {
    for (const y of [2025, 2026, 2027]) {
      for (const edge of [bstInterval(y).start, bstInterval(y).end]) {
        for (let t = edge - 86_400_000; t < edge + 86_400_000; t += 900_000) {
          await insert(userId, { at: new Date(t).toISOString(), status: 'missed' });
          const key = `${londonDayNumber(t)}/${Math.floor((t + londonOffsetMs(t)) / 3_600_000) % 24}`;
          expected.set(key, (expected.get(key) ?? 0) + 1);
          const hour = Math.floor((t + londonOffsetMs(t)) / 3_600_000) % 24;
          expectedHours.set(hour, (expectedHours.get(hour) ?? 0) + 1);
        }
      }
    }
    });
    await insertAll();
    const rows = await server.database.db.select().from(callStats).where(eq(callStats.userId, userId));
    expect(new Map(rows.map((r) => [`${r.day}/${r.hour}`, r.calls]))).toEqual(expected);
    const hourRows = await server.database.db.select().from(callHourStats).where(eq(callHourStats.userId, userId));
    expect(new Map(hourRows.map((r) => [r.hour, r.calls]))).toEqual(expectedHours);
  });

  it('follow updates and deletes of calls, and disappear with their owner', async () => {
    const userId = await freshOwner();
    const id = await insert(userId, { at: '2026-10-20T10:00:00Z', status: 'voicemail', duration: 40, transcriptionStatus: 'pending' });
    await insert(userId, { at: '2026-10-20T11:00:00Z', status: 'missed' });
    expect(await figures(userId)).toMatchObject({ totalCalls: 2, avgDuration: 20, transcriptionSuccessRate: 0, notificationSuccessRate: 0 });

    const db = server.database.db;
    await db.update(calls).set({ transcriptionStatus: 'done', notificationSent: true }).where(eq(calls.id, id));
    expect(await figures(userId)).toMatchObject({ transcriptionSuccessRate: 100, notificationSuccessRate: 100 });
    await db.update(calls).set({ status: 'answered', duration: 100, createdAt: new Date('2026-10-25T00:30:00Z') }).where(eq(calls.id, id));
    expect(await figures(userId)).toMatchObject({ avgDuration: 50, statusBreakdown: { missed: 1, answered: 1, voicemail: 0 } });
    expect((await figures(userId)).callsPerDay['2026-10-25']).toBe(1);
    await db.delete(calls).where(eq(calls.id, id));
    expect(await figures(userId)).toMatchObject({ totalCalls: 1, avgDuration: 0, statusBreakdown: { missed: 1, answered: 0, voicemail: 0 } });

    await db.delete(users).where(eq(users.id, userId));
    expect(await db.select().from(callStats).where(eq(callStats.userId, userId))).toEqual([]);
    expect(await db.select().from(callHourStats).where(eq(callHourStats.userId, userId))).toEqual([]);
  });
});
