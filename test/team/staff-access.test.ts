import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiCallLogsResponse } from '../../contract/api.js';
import { tablesOf } from '../../core/db/schema.js';
import { ownerMember } from '../../core/team/store.js';
import { activeCustomer, signInAdmin } from '../helpers/accounts.js';
import { ApiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startSmtpServer, type SmtpDouble } from '../helpers/smtp.js';
import { waitUntil } from '../helpers/wait.js';
import { insertCalls } from '../calls/seed.js';

// Issue 58 item 2: a staff member's own sign-in, from the owner's invitation to what they may
// see and do; on SQLite and (npm run test:postgres) PostgreSQL.

const OWNER_ONLY = { status: 403, message: 'Only the business owner can do that.' };
const PUBLIC_URL = 'https://calls.example.co.uk';

let smtp: SmtpDouble;
let server: TestServer;
let owner: Awaited<ReturnType<typeof activeCustomer>>;
let other: Awaited<ReturnType<typeof activeCustomer>>;
const ids = { sarah: 0, tom: 0, zed: 0, sarahCall: 0, tomCall: 0, nobodyCall: 0, otherCall: 0, sarahBooking: 0, tomBooking: 0, sarahQuestion: 0, tomQuestion: 0, sarahCallerToTom: 0 };
const SARAH_CALLER = '+447700900301';
const TOM_CALLER = '+447700900302';

const db = () => server.database.db;
const tables = () => tablesOf(db());

async function addMember(ownerId: number, name: string, position: number): Promise<number> {
  const { staff } = tables();
  return (await db().insert(staff).values({ userId: ownerId, name, otherNames: [], position }).returning({ id: staff.id }))[0]!.id;
}

/** The "set your password" token in the newest mail to `email`, once it has arrived. */
function inviteTokenFor(email: string): Promise<{ token: string; text: string }> {
  return waitUntil(() => {
    const mail = [...smtp.received].reverse().find((m) => m.to.includes(email));
    if (!mail) throw new Error(`no mail to ${email} yet`);
    const text = mail.mail.text ?? '';
    const token = new RegExp(`${PUBLIC_URL}/reset-password/([A-Za-z0-9_-]+)`).exec(text)?.[1];
    if (!token) throw new Error(`no link in the mail: ${text}`);
    return { token, text };
  }, 10_000);
}

/** Invites a member, sets their password from the mailed link (the reset route) and signs them in. */
async function staffSignIn(staffId: number, email: string): Promise<ApiClient> {
  const invite = await owner.client.post(`/api/user/team/${staffId}/invite`, { email });
  expect(invite.status, invite.text).toBe(200);
  const { token } = await inviteTokenFor(email);
  const anon = new ApiClient(server.url);
  const reset = await anon.post('/api/auth/reset-password', { token, newPassword: 'Staff-Pass-1', confirmPassword: 'Staff-Pass-1' });
  expect(reset.status, reset.text).toBe(200);
  const client = new ApiClient(server.url);
  const login = await client.post('/api/auth/login', { email, password: 'Staff-Pass-1' });
  expect(login.status, login.text).toBe(200);
  return client;
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url, PUBLIC_URL } });
  owner = await activeCustomer(server, { businessName: 'Owner Ltd' });
  other = await activeCustomer(server, { businessName: 'Other Ltd' });
  await ownerMember(db(), owner.user.id);
  ids.sarah = await addMember(owner.user.id, 'Sarah', 1);
  ids.tom = await addMember(owner.user.id, 'Tom', 2);
  ids.zed = await addMember(other.user.id, 'Zed', 1);
  const at = Date.parse('2026-03-02T09:00:00.000Z');
  const [sarahCall, tomCall, nobodyCall, otherCall] = await insertCalls(server, [
    { userId: owner.user.id, createdAt: new Date(at), fromNumber: SARAH_CALLER, staffId: ids.sarah, routingNote: 'Asked for Sarah: put through to Sarah', recordingFile: 'call-s.wav' },
    { userId: owner.user.id, createdAt: new Date(at + 1000), fromNumber: TOM_CALLER, staffId: ids.tom, recordingFile: 'call-t.wav' },
    { userId: owner.user.id, createdAt: new Date(at + 2000), fromNumber: '+447700900303' },
    { userId: other.user.id, createdAt: new Date(at + 3000), fromNumber: '+447700900304', staffId: ids.zed },
  ]);
  // Sarah's caller rang again and was put through to Tom: that call is Tom's.
  const [sarahCallerToTom] = await insertCalls(server, [{ userId: owner.user.id, createdAt: new Date(at - 1000), fromNumber: SARAH_CALLER, staffId: ids.tom }]);
  ids.sarahCallerToTom = sarahCallerToTom!.id;
  Object.assign(ids, { sarahCall: sarahCall!.id, tomCall: tomCall!.id, nobodyCall: nobodyCall!.id, otherCall: otherCall!.id });
  const { bookingServices, bookings, callerTexts } = tables();
  const service = (await db().insert(bookingServices).values({ userId: owner.user.id, name: 'Cut', durationMinutes: 30 }).returning())[0]!;
  const start = Date.now() + 3 * 86_400_000;
  const book = async (staffId: number, offsetMs: number, callerNumber: string, callId: number) =>
    (await db()
      .insert(bookings)
      .values({
        userId: owner.user.id, serviceId: service.id, staffId, callId, callerName: 'A caller', callerNumber,
        startAt: new Date(start + offsetMs), endAt: new Date(start + offsetMs + 1_800_000), blockEndAt: new Date(start + offsetMs + 1_800_000), slotKey: `k${offsetMs}`,
      })
      .returning())[0]!.id;
  ids.sarahBooking = await book(ids.sarah, 0, SARAH_CALLER, ids.sarahCall);
  ids.tomBooking = await book(ids.tom, 3_600_000, TOM_CALLER, ids.tomCall);
  for (const [n, callerNumber] of [SARAH_CALLER, TOM_CALLER].entries()) {
    await db().insert(callerTexts).values({ userId: owner.user.id, callerNumber, kind: 'caller', status: 'received', body: 'Hello', key: `in:${n}` });
  }
  const { unansweredQuestions } = tables();
  const ask = async (callId: number, callerNumber: string) =>
    (await db().insert(unansweredQuestions).values({ userId: owner.user.id, callId, callerNumber, question: 'Do you open on Sundays?' }).returning())[0]!.id;
  ids.sarahQuestion = await ask(ids.sarahCall, SARAH_CALLER);
  ids.tomQuestion = await ask(ids.tomCall, TOM_CALLER);
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

describe('inviting a staff member', () => {
  let sarah: ApiClient;
  beforeAll(async () => {
    sarah = await staffSignIn(ids.sarah, 'sarah@example.co.uk');
  });

  it('mails a link naming the business, and the member signs in as staff of it', async () => {
    const { text } = await inviteTokenFor('sarah@example.co.uk');
    expect(text).toContain('Owner Ltd has invited you');
    const me = await sarah.get('/api/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ email: 'sarah@example.co.uk', role: 'staff' });
    expect(me.body.staff).toEqual({ id: ids.sarah, name: 'Sarah', view: 'own', businessName: 'Owner Ltd' });
    const { staff } = tables();
    const row = (await db().select().from(staff).where(eq(staff.id, ids.sarah)))[0]!;
    expect(row.inviteEmail).toBe('sarah@example.co.uk');
    expect(row.loginUserId).toBe(me.body.user.id);
  });

  it('refuses an e-mail address any account already uses, and a member of another business', async () => {
    for (const email of [owner.email, 'sarah@example.co.uk']) {
      const res = await owner.client.post(`/api/user/team/${ids.tom}/invite`, { email });
      expect(res.status, email).toBe(400);
      expect(res.body.message).toBe('That e-mail address already has an account here. Use a different address.');
    }
    const bad = await owner.client.post(`/api/user/team/${ids.tom}/invite`, { email: 'not an address' });
    expect(bad.status).toBe(400);
    const theirs = await owner.client.post(`/api/user/team/${ids.zed}/invite`, { email: 'zed@example.co.uk' });
    expect(theirs).toMatchObject({ status: 404, body: { message: 'No such team member.' } });
  });

  it("with view 'own': sees only their own calls, recordings, bookings and callers' texts", async () => {
    const list = await sarah.get<ApiCallLogsResponse>('/api/call-logs');
    expect(list.status).toBe(200);
    expect(list.body.callLogs.map((c) => c.id)).toEqual([ids.sarahCall]);
    expect(list.body.callLogs[0]).toMatchObject({ staffId: ids.sarah, staffName: 'Sarah', routingNote: 'Asked for Sarah: put through to Sarah' });
    // Asking for someone else's is no way round it.
    expect((await sarah.get<ApiCallLogsResponse>(`/api/call-logs?staffId=${ids.tom}`)).body.callLogs).toEqual([]);
    expect((await sarah.get(`/api/call-logs/${ids.sarahCall}`)).status).toBe(200);
    for (const id of [ids.tomCall, ids.nobodyCall, ids.otherCall]) {
      expect((await sarah.get(`/api/call-logs/${id}`)).status, `call ${id}`).toBe(404);
      expect((await sarah.get(`/api/call-logs/${id}/recording`)).status, `recording ${id}`).toBe(404);
      expect((await sarah.patch(`/api/call-logs/${id}/called-back`, { calledBack: true })).status, `called back ${id}`).toBe(404);
    }
    const done = await sarah.patch(`/api/call-logs/${ids.sarahCall}/called-back`, { calledBack: true });
    expect(done.status).toBe(200);
    expect(done.body.callLog).toMatchObject({ id: ids.sarahCall, staffName: 'Sarah' });
    const bookings = await sarah.get('/api/user/bookings');
    expect(bookings.body.bookings.map((b: { id: number }) => b.id)).toEqual([ids.sarahBooking]);
    expect(bookings.body.bookings[0]).toMatchObject({ staffId: ids.sarah, staffName: 'Sarah', routingNote: 'Asked for Sarah: put through to Sarah' });
    expect((await sarah.get(`/api/user/bookings?callId=${ids.tomCall}`)).body.bookings).toEqual([]);
    const threads = await sarah.get('/api/user/caller-texts');
    expect(threads.body.threads.map((t: { callerNumber: string }) => t.callerNumber)).toEqual([SARAH_CALLER]);
    expect((await sarah.get(`/api/user/caller-texts/thread?caller=${encodeURIComponent(TOM_CALLER)}`)).status).toBe(404);
    const thread = await sarah.get(`/api/user/caller-texts/thread?caller=${encodeURIComponent(SARAH_CALLER)}`);
    expect(thread.status).toBe(200);
    // The same caller's call that was Tom's stays out of Sarah's thread.
    expect(thread.body.calls.map((c: { id: number }) => c.id)).toEqual([ids.sarahCall]);
    const questions = await sarah.get('/api/unanswered-questions');
    expect(questions.body.questions.map((q: { id: number }) => q.id)).toEqual([ids.sarahQuestion]);
    expect((await sarah.patch(`/api/unanswered-questions/${ids.tomQuestion}/resolve`)).status).toBe(404);
  });

  it("with view 'everything': sees the whole business, and never another business", async () => {
    const { staff } = tables();
    await db().update(staff).set({ view: 'everything' }).where(eq(staff.id, ids.sarah));
    try {
      const list = await sarah.get<ApiCallLogsResponse>('/api/call-logs');
      expect(list.body.callLogs.map((c) => c.id)).toEqual([ids.nobodyCall, ids.tomCall, ids.sarahCall, ids.sarahCallerToTom]);
      expect((await sarah.get(`/api/call-logs/${ids.tomCall}`)).status).toBe(200);
      expect((await sarah.get(`/api/call-logs/${ids.otherCall}`)).status).toBe(404);
      expect((await sarah.get('/api/user/bookings')).body.bookings.map((b: { id: number }) => b.id)).toEqual([ids.sarahBooking, ids.tomBooking]);
      expect((await sarah.get('/api/user/caller-texts')).body.threads).toHaveLength(2);
      expect((await sarah.get('/api/unanswered-questions')).body.questions).toHaveLength(2);
      expect((await sarah.get('/api/auth/me')).body.staff.view).toBe('everything');
    } finally {
      await db().update(staff).set({ view: 'own' }).where(eq(staff.id, ids.sarah));
    }
  });

  it("is refused the owner's routes: inviting, numbers, call handling, settings, export, admin", async () => {
    const refused: [string, string, unknown?][] = [
      ['POST', `/api/user/team/${ids.tom}/invite`, { email: 'tom@example.co.uk' }],
      ['DELETE', `/api/user/team/${ids.sarah}/invite`],
      ['POST', '/api/phone-numbers/purchase', {}],
      ['GET', '/api/phone-numbers'],
      ['PUT', '/api/user/call-handling', {}],
      ['PATCH', '/api/user/settings', { businessName: 'Mine now' }],
      ['GET', '/api/user/export'],
      ['GET', '/api/user/webhook'],
      ['GET', '/api/admin/users'],
    ];
    for (const [method, url, body] of refused) {
      const res = await sarah.request(method, url, body);
      expect({ status: res.status, message: res.body?.message }, `${method} ${url}`).toEqual(OWNER_ONLY);
    }
    // Nothing was changed on the way: Tom has no sign-in, the business keeps its name.
    const { staff, users } = tables();
    expect((await db().select().from(staff).where(eq(staff.id, ids.tom)))[0]!.loginUserId).toBeNull();
    expect((await db().select().from(users).where(eq(users.id, owner.user.id)))[0]!.businessName).toBe('Owner Ltd');
  });

  it('cannot raise their own view (every team route is refused: test/security/route-table-access.test.ts)', async () => {
    // The team's PUT /api/user/team/:id takes a view; whatever a staff member sends, theirs stays.
    await sarah.request('PUT', `/api/user/team/${ids.sarah}`, { view: 'everything' });
    await sarah.request('PUT', '/api/user/team/settings', { ringFirst: 'all' });
    const { staff } = tables();
    expect((await db().select().from(staff).where(eq(staff.id, ids.sarah)))[0]!.view).toBe('own');
    expect((await sarah.get('/api/auth/me')).body.staff.view).toBe('own');
  });

  it('changes their own password with the usual rules, signing in with it after', async () => {
    const wrong = await sarah.post('/api/auth/change-password', { currentPassword: 'nope-nope', newPassword: 'Staff-Pass-2' });
    expect(wrong).toMatchObject({ status: 400, body: { message: 'Current password is incorrect' } });
    const ok = await sarah.post('/api/auth/change-password', { currentPassword: 'Staff-Pass-1', newPassword: 'Staff-Pass-2' });
    expect(ok.status).toBe(200);
    // The owner's password is untouched.
    expect((await new ApiClient(server.url).post('/api/auth/login', { email: owner.email, password: owner.password })).status).toBe(200);
    expect((await new ApiClient(server.url).post('/api/auth/login', { email: 'sarah@example.co.uk', password: 'Staff-Pass-2' })).status).toBe(200);
    expect((await sarah.get('/api/call-logs')).status).toBe(200);
  });
});

describe("the owner's lists by person", () => {
  it('filters calls and bookings by ?staffId= and refuses someone not on the team', async () => {
    const toms = await owner.client.get<ApiCallLogsResponse>(`/api/call-logs?staffId=${ids.tom}`);
    expect(toms.body.callLogs.map((c) => c.id)).toEqual([ids.tomCall, ids.sarahCallerToTom]);
    expect(toms.body.callLogs[0]).toMatchObject({ staffId: ids.tom, staffName: 'Tom', routingNote: null });
    const all = await owner.client.get<ApiCallLogsResponse>('/api/call-logs');
    expect(all.body.callLogs.map((c) => c.id)).toEqual([ids.nobodyCall, ids.tomCall, ids.sarahCall, ids.sarahCallerToTom]);
    expect((await owner.client.get(`/api/user/bookings?staffId=${ids.tom}`)).body.bookings.map((b: { id: number }) => b.id)).toEqual([ids.tomBooking]);
    for (const q of [`/api/call-logs?staffId=${ids.zed}`, '/api/call-logs?staffId=999999', `/api/user/bookings?staffId=${ids.zed}`]) {
      const res = await owner.client.get(q);
      expect({ status: res.status, message: res.body.message }, q).toEqual({ status: 400, message: 'There is no such person on your team.' });
    }
  });
});

describe('invitations sent too fast', () => {
  it('are refused with 429 after ten in fifteen minutes, per owner', async () => {
    const busy = await activeCustomer(server, { businessName: 'Busy Ltd' });
    const member = await addMember(busy.user.id, 'Bea', 1);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await busy.client.post(`/api/user/team/${member}/invite`, { email: 'bea@example.co.uk' })).status);
    expect(statuses).toEqual([...Array<number>(10).fill(200), 429]);
    // Another owner is not held up by it.
    expect((await owner.client.post(`/api/user/team/${ids.zed}/invite`, { email: 'zed@example.co.uk' })).status).toBe(404);
  });
});

describe('taking a sign-in away', () => {
  it('revoking ends the session at once and deletes the login', async () => {
    const tom = await staffSignIn(ids.tom, 'tom@example.co.uk');
    expect((await tom.get('/api/call-logs')).status).toBe(200);
    const revoked = await owner.client.delete(`/api/user/team/${ids.tom}/invite`);
    expect(revoked).toMatchObject({ status: 200, body: { message: 'Tom can no longer sign in.' } });
    expect((await tom.get('/api/call-logs')).status).toBe(401);
    expect((await new ApiClient(server.url).post('/api/auth/login', { email: 'tom@example.co.uk', password: 'Staff-Pass-1' })).status).toBe(401);
    const { staff, users } = tables();
    expect((await db().select().from(staff).where(eq(staff.id, ids.tom)))[0]).toMatchObject({ loginUserId: null, inviteEmail: null });
    expect(await db().select().from(users).where(eq(users.email, 'tom@example.co.uk'))).toEqual([]);
  });

  it('a removed member (removed_at set) can no longer use their session or sign in', async () => {
    const member = await addMember(owner.user.id, 'Rita', 3);
    const rita = await staffSignIn(member, 'rita@example.co.uk');
    expect((await rita.get('/api/call-logs')).status).toBe(200);
    const { staff } = tables();
    await db().update(staff).set({ removedAt: new Date() }).where(eq(staff.id, member));
    expect((await rita.get('/api/call-logs')).status).toBe(401);
    const again = await new ApiClient(server.url).post('/api/auth/login', { email: 'rita@example.co.uk', password: 'Staff-Pass-1' });
    expect(again.status).toBe(403);
  });
});

describe('GDPR', () => {
  it("the business's export has its staff (no secrets) and each call's and booking's person", async () => {
    const { staff } = tables();
    await db().update(staff).set({ icalUrlSealed: 'sealed-secret', phoneCodeHash: 'code-hash' }).where(eq(staff.id, ids.sarah));
    const res = await owner.client.get('/api/user/export');
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('sealed-secret');
    expect(res.text).not.toContain('code-hash');
    const sarah = res.body.staff.find((s: { id: number }) => s.id === ids.sarah);
    expect(sarah).toMatchObject({ name: 'Sarah', calendar: 'ical', view: 'own', invite: { email: 'sarah@example.co.uk', state: 'active' } });
    expect(res.body.staff.map((s: { name: string }) => s.name)).toEqual(['Owner', 'Sarah', 'Tom', 'Rita']);
    expect(res.body.calls.find((c: { id: number }) => c.id === ids.sarahCall)).toMatchObject({ staffId: ids.sarah, staffName: 'Sarah', routingNote: 'Asked for Sarah: put through to Sarah' });
    expect(res.body.bookings.find((b: { id: number }) => b.id === ids.tomBooking)).toMatchObject({ staffId: ids.tom, staffName: 'Tom' });
  });

  it("erasing the business removes its staff and their logins", async () => {
    const doomed = await activeCustomer(server, { businessName: 'Doomed Ltd' });
    const member = await addMember(doomed.user.id, 'Dan', 1);
    const invite = await doomed.client.post(`/api/user/team/${member}/invite`, { email: 'dan@example.co.uk' });
    expect(invite.status).toBe(200);
    const { staff, users } = tables();
    const login = (await db().select().from(staff).where(eq(staff.id, member)))[0]!.loginUserId!;
    const admin = await signInAdmin(server);
    expect((await admin.delete(`/api/admin/users/${doomed.user.id}`)).status).toBe(200);
    expect(await db().select().from(staff).where(eq(staff.userId, doomed.user.id))).toEqual([]);
    expect(await db().select().from(users).where(eq(users.id, login))).toEqual([]);
  });
});
