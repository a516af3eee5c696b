// Issue 56: the call-back tracker's routes over HTTP (the owner's session; a staff sign-in by their
// view, as the calls routes): the list, cancel, take it myself, their 409s, 404s and 400s, and the
// owner's "Who rings callers back" saved and refused in words.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiCallBack, ApiCallBackResponse, ApiCallBacksResponse, ApiTakeCallBackResponse } from '../../contract/api.js';
import type { ApiCallHandlingResponse } from '../../contract/call-handling.js';
import { claimDueCallBacks } from '../../core/call-backs-store/claim.js';
import { recordCallBackWish } from '../../core/call-backs-store/store.js';
import { loadCallHandling } from '../../core/call-handling/store.js';
import { tablesOf } from '../../core/db/schema.js';
import { inviteStaff } from '../../core/team/invite.js';
import { activeCustomer } from '../helpers/accounts.js';
import { ApiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { insertCalls } from '../calls/seed.js';

let server: TestServer;
let owner: Awaited<ReturnType<typeof activeCustomer>>;
let other: Awaited<ReturnType<typeof activeCustomer>>;

beforeAll(async () => {
  server = await startTestServer();
  owner = await activeCustomer(server, { businessName: 'Routes Ltd' });
  other = await activeCustomer(server, { businessName: 'Other Ltd' });
});
afterAll(() => server.close());

/** A call-back of `userId`'s, asked for on a voicemail from `number`, due now. */
async function callBack(userId: number, number: string, staffId: number | null = null) {
  const [call] = await insertCalls(server, [{ userId, status: 'voicemail', fromNumber: number, aiSummary: 'Wants a quote for a new boiler.', staffId }]);
  return recordCallBackWish(server.database.db, { userId, firstCallId: call!.id, callerNumber: number, dueAt: new Date(Date.now() - 1000), source: 'voicemail', staffId }, new Date());
}

async function setState(id: number, state: ApiCallBack['state']) {
  const { callBacks } = tablesOf(server.database.db);
  await server.database.db.update(callBacks).set({ state }).where(eq(callBacks.id, id));
}

describe('GET /api/call-backs', () => {
  it("lists the owner's call-backs with the first call's summary line, and never another business's", async () => {
    const mine = await callBack(owner.user.id, '+447700900801');
    const theirs = await callBack(other.user.id, '+447700900802');
    const res = await owner.client.get<ApiCallBacksResponse>('/api/call-backs');
    expect(res.status).toBe(200);
    expect(res.body.callBacks.find((c) => c.id === mine.id)).toEqual({
      id: mine.id,
      state: 'waiting',
      source: 'voicemail',
      askedAt: mine.askedAt.toISOString(),
      dueAt: mine.dueAt.toISOString(),
      tries: 0,
      lastTryAt: null,
      lastOutcome: null,
      doneBy: null,
      callerNumber: '+447700900801',
      firstCallId: mine.firstCallId,
      callBackCallId: null,
      staffId: null,
      summary: 'Wants a quote for a new boiler.',
    });
    expect(res.body.callBacks.map((c) => c.id)).not.toContain(theirs.id);
  });

  it('asks a signed-out visitor to log in', async () => {
    const anon = new ApiClient(server.url);
    expect((await anon.get('/api/call-backs')).status).toBe(401);
  });
});

describe('POST /api/call-backs/{id}/cancel and /take', () => {
  it('cancels a waiting call-back, so the dialler never takes it; a second cancel says it is already cancelled', async () => {
    const cb = await callBack(owner.user.id, '+447700900811');
    const res = await owner.client.post<ApiCallBackResponse>(`/api/call-backs/${cb.id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: 'Call-back cancelled: the assistant will not ring them.', callBack: { id: cb.id, state: 'cancelled', doneBy: 'owner-cancelled' } });
    expect((await claimDueCallBacks(server.database.db, new Date(Date.now() + 60_000), 100)).map((r) => r.id)).not.toContain(cb.id);
    const again = await owner.client.post(`/api/call-backs/${cb.id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'This call-back is already cancelled.' });
  });

  it('takes it myself: done by the owner, with the tel: link to ring the caller', async () => {
    const cb = await callBack(owner.user.id, '+447700900812');
    const res = await owner.client.post<ApiTakeCallBackResponse>(`/api/call-backs/${cb.id}/take`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tel: 'tel:+447700900812', message: 'Yours now: the assistant will not ring them.', callBack: { id: cb.id, state: 'done', doneBy: 'owner' } });
    expect((await claimDueCallBacks(server.database.db, new Date(Date.now() + 60_000), 100)).map((r) => r.id)).not.toContain(cb.id);
  });

  it('answers 409 in words when it is answered, done or being dialled, and changes nothing', async () => {
    const answered = await callBack(owner.user.id, '+447700900821');
    await setState(answered.id, 'answered');
    for (const action of ['cancel', 'take']) {
      const res = await owner.client.post(`/api/call-backs/${answered.id}/${action}`);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: 'They have already been rung back: the assistant spoke to them.' });
    }
    const done = await callBack(owner.user.id, '+447700900822');
    await setState(done.id, 'done');
    for (const action of ['cancel', 'take']) {
      const res = await owner.client.post(`/api/call-backs/${done.id}/${action}`);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: 'This call-back is already done.' });
    }
    const calling = await callBack(owner.user.id, '+447700900823');
    await setState(calling.id, 'calling');
    const cancel = await owner.client.post(`/api/call-backs/${calling.id}/cancel`);
    expect(cancel.status).toBe(409);
    expect(cancel.body).toEqual({ message: 'The assistant is ringing them right now, so it cannot be cancelled.' });
    const take = await owner.client.post(`/api/call-backs/${calling.id}/take`);
    expect(take.status).toBe(409);
    expect(take.body).toEqual({ message: 'The assistant is ringing them right now: wait until the call ends.' });
    const list = (await owner.client.get<ApiCallBacksResponse>('/api/call-backs')).body.callBacks;
    expect(Object.fromEntries(list.filter((c) => [answered.id, done.id, calling.id].includes(c.id)).map((c) => [c.id, c.state]))).toEqual({ [answered.id]: 'answered', [done.id]: 'done', [calling.id]: 'calling' });
  });

  it("answers 404 for another business's call-back (and a missing one) and leaves it alone", async () => {
    const theirs = await callBack(other.user.id, '+447700900831');
    for (const action of ['cancel', 'take']) {
      const res = await owner.client.post(`/api/call-backs/${theirs.id}/${action}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Call-back not found.' });
    }
    expect((await owner.client.post('/api/call-backs/999999/cancel')).status).toBe(404);
    const list = (await other.client.get<ApiCallBacksResponse>('/api/call-backs')).body.callBacks;
    expect(list.find((c) => c.id === theirs.id)!.state).toBe('waiting');
  });

  it('answers 400 with a message for an id that is not one', async () => {
    for (const id of ['abc', '0', '-3', '1.5']) {
      const res = await owner.client.post<{ message: string }>(`/api/call-backs/${id}/cancel`);
      expect(res.status).toBe(400);
      expect(typeof res.body.message).toBe('string');
      expect(res.body.message.length).toBeGreaterThan(0);
    }
  });
});

describe('a staff sign-in', () => {
  it('with view "own" sees and takes only the call-backs of their own calls', async () => {
    const db = server.database.db;
    const { staff } = tablesOf(db);
    const member = (await db.insert(staff).values({ userId: owner.user.id, name: 'Sarah', otherNames: [], position: 1, view: 'own' }).returning())[0]!;
    const { token } = await inviteStaff(db, owner.user.id, member.id, 'sarah-cb@example.co.uk', new Date());
    const sarah = new ApiClient(server.url);
    expect((await sarah.post('/api/auth/reset-password', { token, newPassword: 'Staff-Pass-1', confirmPassword: 'Staff-Pass-1' })).status).toBe(200);
    expect((await sarah.post('/api/auth/login', { email: 'sarah-cb@example.co.uk', password: 'Staff-Pass-1' })).status).toBe(200);

    const hers = await callBack(owner.user.id, '+447700900841', member.id);
    const business = await callBack(owner.user.id, '+447700900842');
    const ids = (await sarah.get<ApiCallBacksResponse>('/api/call-backs')).body.callBacks.map((c) => c.id);
    expect(ids).toEqual([hers.id]);
    expect((await sarah.post(`/api/call-backs/${business.id}/take`)).status).toBe(404);
    const take = await sarah.post<ApiTakeCallBackResponse>(`/api/call-backs/${hers.id}/take`);
    expect(take.status).toBe(200);
    expect(take.body.tel).toBe('tel:+447700900841');
  });
});

describe('Who rings callers back (Call handling)', () => {
  it('saves the agent choices and the wait, and the call side reads them', async () => {
    const res = await owner.client.request<ApiCallHandlingResponse>('PUT', '/api/user/call-handling', { callBacksBy: 'agent-after', callBackAfterMinutes: 45 });
    expect(res.status).toBe(200);
    expect(res.body.callHandling).toMatchObject({ callBacksBy: 'agent-after', callBackAfterMinutes: 45 });
    expect(await loadCallHandling(server.database.db, owner.user.id)).toMatchObject({ callBacksBy: 'agent-after', callBackAfterMinutes: 45 });
  });

  it('refuses a wait outside 5 to 240 minutes and an unknown choice with a 400 in words, keeping what was saved', async () => {
    await owner.client.request('PUT', '/api/user/call-handling', { callBacksBy: 'agent-at-time', callBackAfterMinutes: 20 });
    const minutes = "The assistant's wait before it rings back must be a whole number of minutes from 5 to 240.";
    for (const m of [4, 241, 12.5]) {
      const res = await owner.client.request('PUT', '/api/user/call-handling', { callBackAfterMinutes: m });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: minutes, errors: { callBackAfterMinutes: minutes } });
    }
    const bad = await owner.client.request('PUT', '/api/user/call-handling', { callBacksBy: 'robot' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Choose who rings callers back: owner (you), agent-after (the assistant, when you have not within your wait) or agent-at-time (the assistant, at the time agreed with the caller).');
    expect(await loadCallHandling(server.database.db, owner.user.id)).toMatchObject({ callBacksBy: 'agent-at-time', callBackAfterMinutes: 20 });
  });
});
