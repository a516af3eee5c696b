// The "To call back" tracker's API: the console's Mark called back button.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiCallLog, ApiCallLogsResponse } from '../../contract/api.js';
import { isToCallBack } from '../../contract/callback.js';
import { activeCustomer } from '../helpers/accounts.js';
import { ApiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { insertCalls } from './seed.js';

let server: TestServer;
let owner: Awaited<ReturnType<typeof activeCustomer>>;
let other: Awaited<ReturnType<typeof activeCustomer>>;

beforeAll(async () => {
  server = await startTestServer();
  owner = await activeCustomer(server, { businessName: 'Owner Ltd' });
  other = await activeCustomer(server, { businessName: 'Other Ltd' });
});
afterAll(() => server.close());

type Marked = { callLog: ApiCallLog; message: string };

describe('PATCH /api/call-logs/{id}/called-back', () => {
  it('marks a missed call rung back, so it leaves "To call back", and can undo it', async () => {
    const [call] = await insertCalls(server, [{ userId: owner.user.id, status: 'missed', fromNumber: '+447700900301' }]);
    const before = await owner.client.get<ApiCallLogsResponse>('/api/call-logs');
    const listed = before.body.callLogs.find((c) => c.id === call!.id)!;
    expect(listed.calledBackAt).toBeNull();
    expect(isToCallBack(listed)).toBe(true);

    const res = await owner.client.patch<Marked>(`/api/call-logs/${call!.id}/called-back`, { calledBack: true });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Marked as called back');
    expect(Date.parse(res.body.callLog.calledBackAt!)).not.toBeNaN();
    expect(isToCallBack(res.body.callLog)).toBe(false);
    const after = await owner.client.get<ApiCallLogsResponse>('/api/call-logs');
    expect(after.body.callLogs.find((c) => c.id === call!.id)!.calledBackAt).toBe(res.body.callLog.calledBackAt);

    // Marking again keeps the first time.
    const again = await owner.client.patch<Marked>(`/api/call-logs/${call!.id}/called-back`, { calledBack: true });
    expect(again.body.callLog.calledBackAt).toBe(res.body.callLog.calledBackAt);

    const undo = await owner.client.patch<Marked>(`/api/call-logs/${call!.id}/called-back`, { calledBack: false });
    expect(undo.body).toMatchObject({ message: 'Marked as still to call back', callLog: { calledBackAt: null } });
  });

  it("answers 404 for another business's call and leaves it alone", async () => {
    const [theirs] = await insertCalls(server, [{ userId: other.user.id, status: 'missed', fromNumber: '+447700900302' }]);
    const res = await owner.client.patch(`/api/call-logs/${theirs!.id}/called-back`, { calledBack: true });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Call not found.' });
    const list = await other.client.get<ApiCallLogsResponse>('/api/call-logs');
    expect(list.body.callLogs.find((c) => c.id === theirs!.id)!.calledBackAt).toBeNull();
  });

  it('refuses a body without calledBack, and a signed-out visitor', async () => {
    const [call] = await insertCalls(server, [{ userId: owner.user.id, status: 'voicemail', fromNumber: '+447700900303' }]);
    const bad = await owner.client.patch<{ message: string }>(`/api/call-logs/${call!.id}/called-back`, { calledBack: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBeTruthy();
    const anon = await new ApiClient(server.url).patch(`/api/call-logs/${call!.id}/called-back`, { calledBack: true });
    expect(anon.status).toBe(401);
  });
});

describe('isToCallBack', () => {
  const c = { status: 'missed' as const, fromNumber: '+447700900123', calledBackAt: null };
  it('holds missed calls and voicemails with a number until they are marked', () => {
    expect(isToCallBack(c)).toBe(true);
    expect(isToCallBack({ ...c, status: 'voicemail' })).toBe(true);
    expect(isToCallBack({ ...c, status: 'answered' })).toBe(false);
    expect(isToCallBack({ ...c, fromNumber: '' })).toBe(false);
    expect(isToCallBack({ ...c, calledBackAt: '2026-11-22T10:00:00.000Z' })).toBe(false);
  });

  it('does not hold callers the owner turned away (blocked, withheld refused), but does hold a VIP', () => {
    expect(isToCallBack({ ...c, callerTag: 'blocked' })).toBe(false);
    expect(isToCallBack({ ...c, fromNumber: 'anonymous', callerTag: 'withheld-refused' })).toBe(false);
    expect(isToCallBack({ ...c, callerTag: 'vip' })).toBe(true);
  });

  it('does not hold a caller who withheld their number: there is none to ring', () => {
    for (const fromNumber of ['anonymous', 'Withheld', ' restricted ']) expect(isToCallBack({ ...c, fromNumber }), fromNumber).toBe(false);
    expect(isToCallBack({ ...c, status: 'voicemail', fromNumber: 'anonymous' })).toBe(false);
  });
});
