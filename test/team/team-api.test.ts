import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiTeamMember, ApiTeamResponse } from '../../contract/team.js';
import { tablesOf } from '../../core/db/schema.js';
import { loadCallTeam } from '../../core/team/load-call-team.js';
import { activeCustomer, signInAdmin } from '../helpers/accounts.js';
import { ApiClient } from '../helpers/client.js';
import { latestCode, textsTo } from '../helpers/destinations.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { insertCalls } from '../calls/seed.js';

// Issue 58 item 1: the owner's team through the real HTTP app (docs/team.md).
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const MON_TO_FRI = { mon: [{ open: '09:00', close: '17:00' }], tue: [{ open: '09:00', close: '17:00' }], wed: [{ open: '09:00', close: '13:00' }] };
const team = async (client: ApiClient) => (await client.get<ApiTeamResponse>('/api/user/team')).body;
const add = async (client: ApiClient, body: Record<string, unknown>) => {
  const res = await client.post<{ member: ApiTeamMember }>('/api/user/team', body);
  if (res.status !== 201) throw new Error(`adding ${JSON.stringify(body)} answered ${res.status}: ${res.text}`);
  return res.body.member;
};

describe('the team API', () => {
  it('is the signed-in owner’s only: 401 signed out, 403 for a staff sign-in', async () => {
    const anon = new ApiClient(server.url);
    expect((await anon.get('/api/user/team')).status).toBe(401);
    expect((await anon.post('/api/user/team', { name: 'Tom' })).status).toBe(401);
    // A member's own sign-in: a 'staff' login linked to a member of an owner's team.
    const owner = await activeCustomer(server);
    const staffLogin = await activeCustomer(server);
    const { staff, users } = tablesOf(server.database.db);
    await server.database.db.update(users).set({ role: 'staff' }).where(eq(users.id, staffLogin.user.id));
    await server.database.db.insert(staff).values({ userId: owner.user.id, name: 'Sam', otherNames: [], position: 1, loginUserId: staffLogin.user.id });
    for (const [method, path, body] of [
      ['GET', '/api/user/team', undefined],
      ['POST', '/api/user/team', { name: 'Tom' }],
      ['PUT', '/api/user/team/settings', { ringFirst: 'all' }],
      ['DELETE', '/api/user/team/1', undefined],
    ] as const) {
      const res = await staffLogin.client.request(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.message).toBe('Only the business owner can do that.');
    }
  });

  it('adds three people with names, role words and hours, lists them owner first, and edits one', async () => {
    const { client } = await activeCustomer(server);
    const empty = await team(client);
    expect(empty.maxStaff).toBe(20);
    expect(empty.members).toEqual([expect.objectContaining({ name: 'Owner', isOwner: true, hours: null, services: [], calendar: 'none', invite: { email: null, state: 'none' } })]);
    expect(empty.settings).toEqual({ ringFirst: 'off', ringSeconds: 20, copyOwner: false, rules: [], rota: {} });

    const sarah = await add(client, { name: 'Sarah Jones', otherNames: ['Sarah', 'Sal'], roleWord: 'stylist', hours: MON_TO_FRI });
    expect(sarah).toEqual({
      id: expect.any(Number), name: 'Sarah Jones', otherNames: ['Sarah', 'Sal'], roleWord: 'stylist', isOwner: false, phone: null, pendingPhone: null,
      hours: { ...MON_TO_FRI, thu: [], fri: [], sat: [], sun: [] }, services: [], calendar: 'none', invite: { email: null, state: 'none' }, view: 'own',
    });
    await add(client, { name: 'Tom Baker', otherNames: ['Tom'], roleWord: 'engineer' });
    await add(client, { name: 'Amy', roleWord: 'engineer', view: 'everything', hours: null });
    const listed = await team(client);
    expect(listed.members.map((m) => [m.name, m.roleWord, m.view])).toEqual([['Owner', null, 'own'], ['Sarah Jones', 'stylist', 'own'], ['Tom Baker', 'engineer', 'own'], ['Amy', 'engineer', 'everything']]);

    const edited = await client.request('PUT', `/api/user/team/${sarah.id}`, { roleWord: 'senior stylist', hours: { sat: [{ open: '10:00', close: '14:00' }] } });
    expect(edited.status).toBe(200);
    expect(edited.body.member).toMatchObject({ name: 'Sarah Jones', otherNames: ['Sarah', 'Sal'], roleWord: 'senior stylist', hours: { mon: [], sat: [{ open: '10:00', close: '14:00' }] } });
  });

  it('refuses a shared name, overlapping hours and a long role word with a 400 that says which, and stores nothing', async () => {
    const { client } = await activeCustomer(server);
    const tom = await add(client, { name: 'Tom Baker', otherNames: ['Tom'] });
    const dup = await client.post('/api/user/team', { name: 'Thomas', otherNames: ['TOM'] });
    expect(dup.status).toBe(400);
    expect(dup.body.message).toBe('"Tom" is already a name of Tom Baker on your team: give each person names nobody else on the team uses, so a caller asking for them reaches the right one.');
    const overlap = await client.post('/api/user/team', { name: 'Amy', hours: { mon: [{ open: '09:00', close: '12:00' }, { open: '11:00', close: '15:00' }] } });
    expect(overlap.status).toBe(400);
    expect(overlap.body).toEqual({ message: 'Monday: 09:00–12:00 and 11:00–15:00 overlap.', errors: { 'hours.mon': 'Monday: 09:00–12:00 and 11:00–15:00 overlap.' } });
    const overlapEdit = await client.request('PUT', `/api/user/team/${tom.id}`, { hours: { fri: [{ open: '08:00', close: '18:00' }, { open: '12:00', close: '13:00' }] } });
    expect(overlapEdit.status).toBe(400);
    expect(overlapEdit.body.message).toBe('Friday: 08:00–18:00 and 12:00–13:00 overlap.');
    const role = await client.post('/api/user/team', { name: 'Amy', roleWord: 'x'.repeat(41) });
    expect(role.status).toBe(400);
    expect(role.body.message).toBe('A role word is at most 40 characters, e.g. engineer.');
    expect((await team(client)).members.map((m) => m.name)).toEqual(['Owner', 'Tom Baker']);
    expect((await team(client)).members[1]!.hours).toBeNull();
  });

  it('refuses a 21st person besides the owner with the box’s maximum', async () => {
    const { client } = await activeCustomer(server);
    for (let i = 1; i <= 20; i++) await add(client, { name: `Person ${i}` });
    const res = await client.post('/api/user/team', { name: 'Person 21' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Your team can have at most 20 people besides you.');
    expect((await team(client)).members).toHaveLength(21);
  });

  it('confirms a phone by the code texted to it; refuses premium-rate and abroad numbers and a wrong code', async () => {
    const { client } = await activeCustomer(server);
    const sarah = await add(client, { name: 'Sarah' });
    const premium = await client.post(`/api/user/team/${sarah.id}/phone`, { phone: '09098 790000' });
    expect(premium.status).toBe(400);
    expect(premium.body.message).toBe('Calls are only put through to UK mobile and landline numbers: this is a premium-rate number (09…, 087…). Your operator can allow it.');
    const abroad = await client.post(`/api/user/team/${sarah.id}/phone`, { phone: '+33 6 12 34 56 78' });
    expect(abroad.status).toBe(400);
    expect(abroad.body.message).toBe('Calls are only put through to UK mobile and landline numbers: this is an international number. Your operator can allow it.');
    expect(textsTo(server, '+33612345678')).toEqual([]);

    const sent = await client.post(`/api/user/team/${sarah.id}/phone`, { phone: '07700 900601' });
    expect(sent.status).toBe(200);
    expect(sent.body.message).toBe("We texted a 6-digit code to +447700900601. Enter it here to confirm Sarah's phone.");
    // The member hands the code to the owner, who enters it on the Team page: the text says so.
    expect(textsTo(server, '+447700900601').map((t) => t.body)).toEqual([expect.stringMatching(/^Your call-answering confirmation code is \d{6}\. Give it to the person adding you to their team/)]);
    expect((await team(client)).members[1]).toMatchObject({ phone: null, pendingPhone: '+447700900601' });

    const code = latestCode(server, 'sms', '+447700900601');
    const wrong = await client.post(`/api/user/team/${sarah.id}/phone/confirm`, { code: code === '000000' ? '111111' : '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('That code is not right. Check the latest code we sent and try again.');
    expect((await team(client)).members[1]!.phone).toBeNull();

    const ok = await client.post(`/api/user/team/${sarah.id}/phone/confirm`, { code });
    expect(ok.status).toBe(200);
    expect(ok.body.member).toMatchObject({ phone: '+447700900601', pendingPhone: null });
    expect((await team(client)).members[1]!.phone).toBe('+447700900601');
    const again = await client.post(`/api/user/team/${sarah.id}/phone/confirm`, { code });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('There is no new phone waiting to be confirmed for Sarah. Save their phone first.');
  });

  it('saves the services a person does with their own length; refuses an unknown or archived service', async () => {
    const { client } = await activeCustomer(server);
    const tom = await add(client, { name: 'Tom' });
    const cut = (await client.post('/api/user/booking/services', { name: 'Cut', durationMinutes: 30 })).body;
    const colour = (await client.post('/api/user/booking/services', { name: 'Colour', durationMinutes: 90 })).body;
    const old = (await client.post('/api/user/booking/services', { name: 'Old', durationMinutes: 30 })).body;
    expect((await client.request('DELETE', `/api/user/booking/services/${old.id}`)).status).toBe(200);

    const saved = await client.request('PUT', `/api/user/team/${tom.id}/services`, { services: [{ serviceId: cut.id, durationMinutes: 45 }, { serviceId: colour.id, durationMinutes: null }] });
    expect(saved.status).toBe(200);
    expect(saved.body.member.services).toEqual([{ serviceId: cut.id, durationMinutes: 45 }, { serviceId: colour.id, durationMinutes: null }]);
    for (const serviceId of [old.id, 999_999]) {
      const bad = await client.request('PUT', `/api/user/team/${tom.id}/services`, { services: [{ serviceId, durationMinutes: null }] });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe('Pick one of your services: that one does not exist or was removed.');
    }
    const long = await client.request('PUT', `/api/user/team/${tom.id}/services`, { services: [{ serviceId: cut.id, durationMinutes: 481 }] });
    expect(long.status).toBe(400);
    expect(long.body.message).toBe("A person's length for a service is a whole number of minutes from 5 to 480, or empty for the service's own.");
    expect((await team(client)).members[1]!.services).toEqual([{ serviceId: cut.id, durationMinutes: 45 }, { serviceId: colour.id, durationMinutes: null }]);
  });

  it('saves rules and a rota naming current people, refuses removing someone they name, and refuses a rule or rota day naming a removed person', async () => {
    const { client } = await activeCustomer(server);
    const sarah = await add(client, { name: 'Sarah', roleWord: 'engineer' });
    const amy = await add(client, { name: 'Amy' });
    const rules = [{ when: 'emergency', then: { kind: 'on-call' } }, { when: 'new-enquiry', then: { kind: 'person', staffId: sarah.id } }];
    const saved = await client.request('PUT', '/api/user/team/settings', { ringFirst: 'in-order', ringSeconds: 25, copyOwner: true, rules, rota: { mon: sarah.id } });
    expect(saved.status).toBe(200);
    expect(saved.body.settings).toEqual({ ringFirst: 'in-order', ringSeconds: 25, copyOwner: true, rules, rota: { mon: sarah.id } });
    expect((await team(client)).settings).toEqual(saved.body.settings);

    const refused = await client.request('DELETE', `/api/user/team/${sarah.id}`);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Rule 2 puts calls through to Sarah: change that rule before removing Sarah.');

    expect((await client.request('DELETE', `/api/user/team/${amy.id}`)).status).toBe(200);
    const naming = await client.request('PUT', '/api/user/team/settings', { rules: [...rules, { when: 'booking', then: { kind: 'person', staffId: amy.id } }] });
    expect(naming.status).toBe(400);
    expect(naming.body.message).toBe('Rule 3 names someone who is no longer on your team.');
    const rota = await client.request('PUT', '/api/user/team/settings', { rota: { mon: sarah.id, tue: amy.id } });
    expect(rota.status).toBe(400);
    expect(rota.body.message).toBe('The on-call rota for Tuesday names someone who is no longer on your team.');
    const slow = await client.request('PUT', '/api/user/team/settings', { ringSeconds: 5 });
    expect(slow.status).toBe(400);
    expect(slow.body.message).toBe('Ring the team for a whole number of seconds from 10 to 60.');
    expect((await team(client)).settings).toEqual(saved.body.settings);
  });

  it('removal keeps the row and its call’s and booking’s staff_id; the owner cannot be removed; the admin list counts current staff', async () => {
    const { client, user } = await activeCustomer(server);
    const tom = await add(client, { name: 'Tom' });
    await add(client, { name: 'Amy' });
    const admin = await signInAdmin(server);
    const countOf = async () => ((await admin.get('/api/admin/users')).body.users as Array<{ id: number; staffCount: number }>).find((u) => u.id === user.id)?.staffCount;
    expect(await countOf()).toBe(2);

    const db = server.database.db;
    const { bookings, calls, staff } = tablesOf(db);
    const service = (await client.post('/api/user/booking/services', { name: 'Visit', durationMinutes: 60 })).body;
    const [call] = await insertCalls(server, [{ userId: user.id, staffId: tom.id, routingNote: 'Asked for Tom: put through' }]);
    const [booking] = await db
      .insert(bookings)
      .values({ userId: user.id, serviceId: service.id, staffId: tom.id, startAt: new Date('2026-12-09T10:00:00Z'), endAt: new Date('2026-12-09T11:00:00Z'), blockEndAt: new Date('2026-12-09T11:00:00Z'), callerName: 'Pat', callerNumber: '+447700900777', slotKey: 'team-api-removal', callId: call!.id })
      .returning();

    const removed = await client.request('DELETE', `/api/user/team/${tom.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.message).toBe('Tom is no longer on your team. Their past calls and bookings still show their name.');
    expect((await team(client)).members.map((m) => m.name)).toEqual(['Owner', 'Amy']);
    expect((await db.select().from(staff).where(eq(staff.id, tom.id)))[0]).toMatchObject({ name: 'Tom', removedAt: expect.any(Date) });
    expect((await db.select().from(calls).where(eq(calls.id, call!.id)))[0]!.staffId).toBe(tom.id);
    expect((await db.select().from(bookings).where(eq(bookings.id, booking!.id)))[0]!.staffId).toBe(tom.id);
    expect(await countOf()).toBe(1);
    // What a call sees of the team (CallPath.team): nobody removed is there to ring or route to.
    expect((await loadCallTeam(db, user.id, new Date())).members.map((m) => m.name)).toEqual(['Owner', 'Amy']);

    // Gone means gone: not edited, not removed twice, not given a phone.
    expect((await client.request('PUT', `/api/user/team/${tom.id}`, { name: 'Tom' })).status).toBe(404);
    expect((await client.request('DELETE', `/api/user/team/${tom.id}`)).status).toBe(404);
    expect((await client.post(`/api/user/team/${tom.id}/phone`, { phone: '07700 900602' })).status).toBe(404);

    const owner = (await team(client)).members[0]!;
    const keep = await client.request('DELETE', `/api/user/team/${owner.id}`);
    expect(keep.status).toBe(400);
    expect(keep.body.message).toBe('You are the owner: you stay on your team. Remove other people only.');
  });

  it('never lets one owner reach another business’s member', async () => {
    const a = await activeCustomer(server);
    const b = await activeCustomer(server);
    const theirs = await add(b.client, { name: 'Zed' });
    expect((await a.client.request('PUT', `/api/user/team/${theirs.id}`, { name: 'Mine' })).status).toBe(404);
    expect((await a.client.request('DELETE', `/api/user/team/${theirs.id}`)).status).toBe(404);
    expect((await a.client.request('PUT', '/api/user/team/settings', { rota: { mon: theirs.id } })).body.message).toBe('The on-call rota for Monday names someone who is no longer on your team.');
    expect((await team(b.client)).members.map((m) => m.name)).toEqual(['Owner', 'Zed']);
  });
});

describe('TEAM_MAX_STAFF', () => {
  let small: TestServer;
  beforeAll(async () => {
    small = await startTestServer({ env: { TEAM_MAX_STAFF: '2' }, rateLimits: { teamPhoneCodesPerOwner: { max: 2, windowMs: 60 * 60_000 } } });
  });
  afterAll(() => small.close());

  it('sets how many people a team may have besides the owner, and the sentence says it', async () => {
    const { client } = await activeCustomer(small);
    expect((await team(client)).maxStaff).toBe(2);
    await add(client, { name: 'One' });
    await add(client, { name: 'Two' });
    const third = await client.post('/api/user/team', { name: 'Three' });
    expect(third.status).toBe(400);
    expect(third.body.message).toBe('Your team can have at most 2 people besides you.');
    // Removing someone makes room again.
    const one = (await team(client)).members.find((m) => m.name === 'One')!;
    expect((await client.request('DELETE', `/api/user/team/${one.id}`)).status).toBe(200);
    expect((await add(client, { name: 'Three' })).name).toBe('Three');
  });

  it('gives the last place to one of several owners’ tabs adding at once, and a name to one of two', async () => {
    const { client } = await activeCustomer(small);
    await add(client, { name: 'First' });
    const burst = await Promise.all(['Ann', 'Ben', 'Cat', 'Dan'].map((name) => client.post('/api/user/team', { name })));
    expect(burst.map((r) => r.status).sort()).toEqual([201, 400, 400, 400]);
    for (const r of burst.filter((b) => b.status === 400)) expect(r.body.message).toBe('Your team can have at most 2 people besides you.');
    expect((await team(client)).members).toHaveLength(3);

    const other = await activeCustomer(small);
    const same = await Promise.all([other.client.post('/api/user/team', { name: 'Sam' }), other.client.post('/api/user/team', { name: 'SAM' })]);
    expect(same.map((r) => r.status).sort()).toEqual([201, 400]);
    expect((await team(other.client)).members.map((m) => m.name.toLowerCase())).toEqual(['owner', 'sam']);
  });

  it('texts a business’s members a bounded number of codes an hour', async () => {
    const { client } = await activeCustomer(small);
    const one = await add(client, { name: 'One' });
    expect((await client.post(`/api/user/team/${one.id}/phone`, { phone: '07700 900611' })).status).toBe(200);
    expect((await client.post(`/api/user/team/${one.id}/phone`, { phone: '07700 900612' })).status).toBe(200);
    const third = await client.post(`/api/user/team/${one.id}/phone`, { phone: '07700 900613' });
    expect(third.status).toBe(429);
    expect(textsTo(small, '+447700900613')).toEqual([]);
  });
});
