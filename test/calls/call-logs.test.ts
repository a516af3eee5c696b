import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiCallLog, ApiCallLogsResponse } from '../../contract/api.js';
import { callLogPageQuery } from '../../core/calls/queries.js';
import { activeCustomer, signInAdmin } from '../helpers/accounts.js';
import { ApiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { insertCalls } from './seed.js';
import { sqliteOf } from '../../core/db/client.js';

let server: TestServer;
let owner: Awaited<ReturnType<typeof activeCustomer>>;
let other: Awaited<ReturnType<typeof activeCustomer>>;
const t0 = Date.parse('2025-03-01T09:00:00.000Z');

beforeAll(async () => {
  server = await startTestServer();
  owner = await activeCustomer(server, { businessName: 'Owner Ltd' });
  other = await activeCustomer(server, { businessName: 'Other Ltd' });
});
afterAll(() => server.close());

describe('GET /api/call-logs', () => {
  it('asks a signed-out visitor to log in', async () => {
    const res = await new ApiClient(server.url).get('/api/call-logs');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Please log in to continue.' });
  });

  it('lists only the owner’s calls, newest first, in the SPEC §3 shape', async () => {
    const [older, newer, sameTime] = await insertCalls(server, [
      { userId: owner.user.id, createdAt: new Date(t0), status: 'missed', fromNumber: '+447700900201' },
      {
        userId: owner.user.id,
        createdAt: new Date(t0 + 60_000),
        status: 'voicemail',
        duration: 42,
        fromNumber: '+447700900202',
        aiSummary: 'Wants a boiler quote',
        transcription: 'Hi, could you quote for a new boiler?',
        recordingFile: 'call-2.wav',
        notificationSent: true,
        urgency: 'urgent',
        urgencyReason: 'no heating with a baby at home',
      },
      { userId: owner.user.id, createdAt: new Date(t0), status: 'answered', fromNumber: '+447700900203' },
    ]);
    await insertCalls(server, [{ userId: other.user.id, createdAt: new Date(t0 + 120_000), fromNumber: '+447700900999' }]);

    const res = await owner.client.get<ApiCallLogsResponse>('/api/call-logs');
    expect(res.status).toBe(200);
    // Equal times fall back to the id, newest row first, so paging is stable.
    expect(res.body.callLogs.map((c) => c.id)).toEqual([newer!.id, sameTime!.id, older!.id]);
    expect(res.body.nextCursor).toBeNull();
    expect(res.body.callLogs[0]).toEqual<ApiCallLog>({
      id: newer!.id,
      fromNumber: '+447700900202',
      toNumber: '+447700900001',
      status: 'voicemail',
      duration: 42,
      createdAt: '2025-03-01T09:01:00.000Z',
      aiSummary: 'Wants a boiler quote',
      transcription: 'Hi, could you quote for a new boiler?',
      recordingUrl: `/api/call-logs/${newer!.id}/recording`,
      notificationSent: true,
      urgency: 'urgent',
      urgencyReason: 'no heating with a baby at home',
      calledBackAt: null,
      callerTag: null,
      transferOutcome: null,
      transferTalkSeconds: null,
      period: null,
      agentBusy: false,
      agentStalled: false,
      agentVoicemailReason: null,
      testCall: false,
      direction: 'in',
      callClass: null,
      screenedBy: null,
      callerLanguage: null,
      transcriptEnglish: null,
      wantsBooking: false,
      staffId: null,
      staffName: null,
      routingNote: null,
      takenOver: null,
      liveHistory: [],
    });
    expect(res.body.callLogs[1]).toMatchObject({ recordingUrl: null, aiSummary: null, transcription: null, notificationSent: false, urgency: null, urgencyReason: null });

    const theirs = await other.client.get<ApiCallLogsResponse>('/api/call-logs');
    expect(theirs.body.callLogs.map((c) => c.fromNumber)).toEqual(['+447700900999']);
  });

  it('shows an admin no calls (they own none)', async () => {
    const admin = await signInAdmin(server);
    const res = await admin.get<ApiCallLogsResponse>('/api/call-logs');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ callLogs: [], nextCursor: null });
  });

  it('pages with limit and before, without gaps or repeats', async () => {
    const business = await activeCustomer(server, { businessName: 'Pager Ltd' });
    // 7 calls, two sharing a timestamp across a page boundary.
    const times = [0, 1, 2, 2, 3, 4, 5].map((m) => new Date(t0 + m * 60_000));
    const rows = await insertCalls(server, times.map((createdAt) => ({ userId: business.user.id, createdAt })));
    const expected = [...rows].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id).map((r) => r.id);

    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `/api/call-logs?limit=3${cursor ? `&before=${encodeURIComponent(cursor)}` : ''}`;
      const res = await business.client.get<ApiCallLogsResponse>(query);
      expect(res.status).toBe(200);
      expect(res.body.callLogs.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.callLogs.map((c) => c.id));
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(expected);
  });

  it('returns the 200 most recent calls by default, with a cursor to the rest', async () => {
    const busy = await activeCustomer(server, { businessName: 'Busy Ltd' });
    await insertCalls(
      server,
      Array.from({ length: 202 }, (_, i) => ({ userId: busy.user.id, createdAt: new Date(t0 + i * 1000) })),
    );
    const first = await busy.client.get<ApiCallLogsResponse>('/api/call-logs');
    expect(first.body.callLogs).toHaveLength(200);
    expect(first.body.callLogs[0]!.createdAt).toBe(new Date(t0 + 201_000).toISOString());
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const rest = await busy.client.get<ApiCallLogsResponse>(`/api/call-logs?before=${first.body.nextCursor}`);
    expect(rest.body.callLogs.map((c) => c.createdAt)).toEqual([new Date(t0 + 1000).toISOString(), new Date(t0).toISOString()]);
    expect(rest.body.nextCursor).toBeNull();
  });

  it('refuses a bad limit or cursor with a message', async () => {
    for (const q of ['limit=0', 'limit=1001', 'limit=ten']) {
      const res = await owner.client.get(`/api/call-logs?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.message, q).toMatch(/^limit /);
    }
    const bad = await owner.client.get('/api/call-logs?before=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: 'before must be a nextCursor value from an earlier page' });
  });

  // SQLite's query plan (the embedded default); on PostgreSQL the planner picks by table size, so this guard is SQLite's.
  it.runIf(process.env.TEST_DATABASE !== 'postgres')('reads a page from calls_user_created_idx without sorting (regression guard for 100k-call businesses)', () => {
    for (const withCursor of [false, true]) {
      const { sql } = callLogPageQuery(server.database.db, withCursor).toSQL();
      const params = withCursor ? [owner.user.id, t0, 10, 501] : [owner.user.id, 501];
      const plan = sqliteOf(server.database)
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...params)
        .map((r) => (r as { detail: string }).detail)
        .join('\n');
      expect(plan).toMatch(/USING INDEX calls_user_created_idx \(user_id=\?/);
      expect(plan).not.toMatch(/TEMP B-TREE/);
    }
  });
});

describe('GET /api/call-logs/:id', () => {
  it('answers one of the owner’s calls exactly as the list shows it', async () => {
    const [call] = await insertCalls(server, [
      { userId: owner.user.id, createdAt: new Date(t0 - 86_400_000), status: 'voicemail', duration: 20, aiSummary: 'Asks for a boiler service.', recordingFile: 'call-x.wav' },
    ]);
    const res = await owner.client.get<{ callLog: ApiCallLog }>(`/api/call-logs/${call!.id}`);
    expect(res.status).toBe(200);
    const listed = (await owner.client.get<ApiCallLogsResponse>('/api/call-logs?limit=1000')).body.callLogs.find((c) => c.id === call!.id);
    expect(listed).toBeDefined();
    expect(res.body).toEqual({ callLog: listed });
    expect(res.body.callLog).toMatchObject({ aiSummary: 'Asks for a boiler service.', recordingUrl: `/api/call-logs/${call!.id}/recording` });
  });

  it('answers another owner’s call exactly like a missing one, refuses a bad id, and needs a session', async () => {
    const [theirs] = await insertCalls(server, [{ userId: other.user.id, createdAt: new Date(t0) }]);
    for (const id of [theirs!.id, 999_999]) {
      const res = await owner.client.get(`/api/call-logs/${id}`);
      expect(res.status, String(id)).toBe(404);
      expect(res.body, String(id)).toEqual({ message: 'Call not found.' });
    }
    const bad = await owner.client.get('/api/call-logs/abc');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^id /);
    expect((await new ApiClient(server.url).get(`/api/call-logs/${theirs!.id}`)).status).toBe(401);
  });
});
