import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiCallLog, ApiCallLogsResponse } from '../../contract/api.js';
import { recordLiveEnd, recordLiveJoin } from '../../core/live-control/history.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { insertCalls } from './seed.js';

// A call's live actions (issue 54) in the call log: the listens, take-overs and End call that
// core/live-control/history.ts wrote (its one writer, as the PBX and the Live page call it) come
// back on GET /api/call-logs and /api/call-logs/:id for the business that owns the call, and for
// nobody else.

let server: TestServer;
let owner: Awaited<ReturnType<typeof activeCustomer>>;
let other: Awaited<ReturnType<typeof activeCustomer>>;
const t0 = Date.parse('2026-07-01T13:00:00.000Z');
const at = (minutes: number) => new Date(t0 + minutes * 60_000);

beforeAll(async () => {
  server = await startTestServer();
  owner = await activeCustomer(server, { businessName: 'Live History Ltd' });
  other = await activeCustomer(server, { businessName: 'Someone Else Ltd' });
});
afterAll(() => server.close());

describe('a call’s live history in the call log', () => {
  it('carries who listened, who took the call over (by phone) and who ended it, oldest first; the first take-over is the row’s', async () => {
    const [call, quiet] = await insertCalls(server, [
      { userId: owner.user.id, createdAt: at(0), status: 'answered', mode: 'agent', fromNumber: '+447700900301' },
      { userId: owner.user.id, createdAt: at(-60), status: 'answered', fromNumber: '+447700900302' },
    ]);
    const db = server.database.db;
    const base = { callId: call!.id, userId: owner.user.id };
    await recordLiveJoin(db, { ...base, byName: 'Sam', event: 'listen' }, at(3));
    await recordLiveJoin(db, { ...base, byName: 'Sam', event: 'take-over', via: 'phone' }, at(5));
    // A second take-over is history only: the row keeps the first.
    await recordLiveJoin(db, { ...base, byName: 'the owner', event: 'take-over', via: 'browser' }, at(5.5));
    await recordLiveEnd(db, { ...base, byName: 'the owner' }, at(6));

    const expected: Pick<ApiCallLog, 'takenOver' | 'liveHistory'> = {
      takenOver: { by: 'Sam', at: at(5).toISOString(), via: 'phone' },
      liveHistory: [
        { event: 'listen', by: 'Sam', at: at(3).toISOString() },
        { event: 'take-over', by: 'Sam', via: 'phone', at: at(5).toISOString() },
        { event: 'take-over', by: 'the owner', via: 'browser', at: at(5.5).toISOString() },
        { event: 'ended', by: 'the owner', at: at(6).toISOString() },
      ],
    };
    const one = await owner.client.get<{ callLog: ApiCallLog }>(`/api/call-logs/${call!.id}`);
    expect(one.status).toBe(200);
    expect(one.body.callLog).toMatchObject(expected);

    const list = await owner.client.get<ApiCallLogsResponse>('/api/call-logs');
    expect(list.status).toBe(200);
    expect(list.body.callLogs.map((c) => ({ id: c.id, takenOver: c.takenOver, liveHistory: c.liveHistory }))).toEqual([
      { id: call!.id, ...expected },
      { id: quiet!.id, takenOver: null, liveHistory: [] },
    ]);
  });

  it('gives another business 404 for the call, and none of its history in their list', async () => {
    const [call] = await insertCalls(server, [{ userId: owner.user.id, createdAt: at(10), status: 'answered', mode: 'agent', fromNumber: '+447700900303' }]);
    await recordLiveJoin(server.database.db, { callId: call!.id, userId: owner.user.id, byName: 'Sam', event: 'take-over', via: 'browser' }, at(11));

    const theirs = await other.client.get(`/api/call-logs/${call!.id}`);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual({ message: 'Call not found.' });
    const theirList = await other.client.get<ApiCallLogsResponse>('/api/call-logs');
    expect(theirList.body.callLogs).toEqual([]);

    const mine = await owner.client.get<{ callLog: ApiCallLog }>(`/api/call-logs/${call!.id}`);
    expect(mine.body.callLog.takenOver).toEqual({ by: 'Sam', at: at(11).toISOString(), via: 'browser' });
  });
});
