// Issue 43's API: an owner marks a call's number SPAM or NOT SPAM (their lists only), three
// businesses' marks put a number on the box-wide list, which screens it for a fourth business
// but not for one that allowed it, and the admin sees numbers and counts only, and clears them.
// Issue 53: only owners' SPAM marks list a number box-wide (spoofed nuisance calls never do), and
// the list is counted when asked: a suspended owner's marks stop counting at once, marks older
// than the window without any new event; the admin sees the marks behind a number.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, phoneNumbers } from '../helpers/tables.js';
import { screenBeforeAnswer } from '../../core/screening/lookup.js';
import { MARK_WINDOW_DAYS } from '../../core/screening/verdict.js';
import { listBoxEntries } from '../../core/screening/box-list.js';
import type { ApiClient } from '../helpers/client.js';
import { activeCustomer, signInAdmin } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const NUISANCE = '+447700900777';

let server: TestServer;
let admin: ApiClient;
type Owner = Awaited<ReturnType<typeof activeCustomer>> & { did: string };
const owners: Owner[] = [];

beforeAll(async () => {
  server = await startTestServer();
  admin = await signInAdmin(server);
  for (let i = 0; i < 5; i++) {
    const o = await activeCustomer(server);
    const did = `+44113496000${i}`;
    await server.database.db.insert(phoneNumbers).values({ phoneNumber: did, provider: 'static', providerSid: did, userId: o.user.id, assignedAt: new Date() });
    owners.push({ ...o, did });
  }
}, 120_000); // five sign-ups (argon2id) and approvals: slow on a loaded machine
afterAll(() => server.close());

const db = () => server.database.db;
async function callFrom(owner: Owner, fromNumber: string, set: Partial<typeof calls.$inferInsert> = {}): Promise<number> {
  const [row] = await db().insert(calls).values({ userId: owner.user.id, fromNumber, toNumber: owner.did, status: 'voicemail', aiSummary: `secret words for ${owner.email}`, transcription: 'what the caller said', ...set }).returning();
  return row!.id;
}
const mark = (o: Owner, id: number, spam: boolean) => o.client.post(`/api/call-logs/${id}/spam`, { spam });
const screened = (o: Owner, from = NUISANCE) => screenBeforeAnswer(db(), o.did, from, server.services.now());

describe('an owner marks a call', () => {
  it('SPAM screens the number for that owner only, with their choice; NOT SPAM releases it', async () => {
    const [a, b] = owners as [Owner, Owner];
    const id = await callFrom(a, '+447700900301');
    const res = await mark(a, id, true);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ number: '+447700900301', verdict: 'spam', message: expect.stringContaining('is marked as spam') });
    expect(await screened(a, '07700 900301')).toEqual({ screen: true, by: 'owner', action: 'reject' });
    expect(await screened(b, '+447700900301')).toEqual({ screen: false });
    expect((await a.client.get('/api/user/screening')).body).toEqual({ action: 'reject', spam: ['+447700900301'], allow: [] });
    expect((await b.client.get('/api/user/screening')).body).toEqual({ action: 'reject', spam: [], allow: [] });

    expect((await a.client.request('PUT', '/api/user/screening', { action: 'message' })).body).toMatchObject({ action: 'message', message: 'Screening saved' });
    expect(await screened(a, '+447700900301')).toEqual({ screen: true, by: 'owner', action: 'message' });

    expect((await mark(a, id, false)).body).toMatchObject({ verdict: 'allow' });
    expect(await screened(a, '+447700900301')).toEqual({ screen: false });
    expect((await a.client.get('/api/user/screening')).body).toMatchObject({ spam: [], allow: ['+447700900301'] });
    await a.client.request('PUT', '/api/user/screening', { action: 'reject' });
  });

  it('another business\'s call is not found, a withheld caller cannot be marked, bad input is a clear 400', async () => {
    const [a, b] = owners as [Owner, Owner];
    const theirs = await callFrom(b, '+447700900302');
    expect(await mark(a, theirs, true)).toMatchObject({ status: 404, body: { message: 'Call not found.' } });
    const withheld = await callFrom(a, 'anonymous');
    expect(await mark(a, withheld, true)).toMatchObject({ status: 400, body: { message: 'This caller withheld their number, so there is no number to mark.' } });
    expect(await a.client.post(`/api/call-logs/${theirs}/spam`, { spam: 'yes' })).toMatchObject({ status: 400, body: { message: 'Send {"spam": true} or {"spam": false}.' } });
    expect(await a.client.request('PUT', '/api/user/screening', { action: 'shout' })).toMatchObject({ status: 400, body: { message: 'Choose what screened callers get: reject or message.' } });
    expect((await a.client.get('/api/user/screening')).body.spam).toEqual([]);
  });
});

describe('the box-wide list', () => {
  it('three businesses marking a number SPAM screen it for a fourth, but not for one that allowed it', async () => {
    const [a, b, c, d, e] = owners as [Owner, Owner, Owner, Owner, Owner];
    await mark(e, await callFrom(e, NUISANCE), false); // e has it on its allow list
    await mark(a, await callFrom(a, NUISANCE), true);
    await mark(b, await callFrom(b, NUISANCE), true);
    expect(await screened(d)).toEqual({ screen: false });
    await mark(c, await callFrom(c, NUISANCE), true);
    expect(await screened(d)).toEqual({ screen: true, by: 'box', action: 'reject' });
    expect(await screened(e)).toEqual({ screen: false });
    expect(await screened(a)).toEqual({ screen: true, by: 'owner', action: 'reject' });
  });

  it('the admin sees only the number and its counts, never a business or what was said', async () => {
    const res = await admin.get('/api/admin/screening');
    expect(res.status).toBe(200);
    const entry = res.body.entries.find((x: { number: string }) => x.number === NUISANCE);
    expect(entry).toEqual({ number: NUISANCE, businesses: 3, listed: true, clearedAt: null });
    expect(res.body.thresholds).toEqual({ spamMarks: 3 });
    const text = JSON.stringify(res.body);
    for (const o of owners) {
      expect(text).not.toContain(o.email);
      expect(text).not.toContain(String(o.did));
    }
    expect(text).not.toContain('secret words');
    expect(text).not.toContain('what the caller said');
  });

  it('is the admin\'s alone: an owner gets 403 and nothing of it', async () => {
    const [a] = owners as [Owner];
    expect(await a.client.get('/api/admin/screening')).toMatchObject({ status: 403, body: { message: 'Administrators only.' } });
    expect((await a.client.delete(`/api/admin/screening/${encodeURIComponent(NUISANCE)}`)).status).toBe(403);
    expect((await a.client.request('PUT', '/api/admin/screening/thresholds', { spamMarks: 2 })).status).toBe(403);
  });

  it('the admin clears an entry: screened for nobody until fresh marks bring it back', async () => {
    const [a, b, c, d] = owners as [Owner, Owner, Owner, Owner];
    const res = await admin.delete(`/api/admin/screening/${encodeURIComponent(NUISANCE)}`);
    expect(res).toMatchObject({ status: 200, body: { message: expect.stringContaining('is cleared from the box-wide list') } });
    expect(await screened(d)).toEqual({ screen: false });
    expect((await admin.get('/api/admin/screening')).body.entries.find((x: { number: string }) => x.number === NUISANCE)).toMatchObject({ businesses: 0, listed: false, clearedAt: expect.any(String) });
    for (const o of [a, b, c]) await mark(o, await callFrom(o, NUISANCE), true);
    expect(await screened(d)).toEqual({ screen: true, by: 'box', action: 'reject' });
    expect((await admin.delete('/api/admin/screening/07700900000')).status).toBe(404);
    expect(await admin.delete('/api/admin/screening/nonsense')).toMatchObject({ status: 400, body: { message: '"nonsense" is not a phone number.' } });
  });

  it('the admin\'s thresholds apply at once, and a bad one is a clear 400', async () => {
    const [, , , d] = owners as [Owner, Owner, Owner, Owner];
    for (const bad of [{ spamMarks: 1 }, { spamMarks: 3, nuisanceBusinesses: 3 }]) {
      expect(await admin.request('PUT', '/api/admin/screening/thresholds', bad)).toMatchObject({
        status: 400,
        body: { message: 'Each threshold must be a whole number of businesses from 2 to 100.' },
      });
    }
    expect((await admin.get('/api/admin/screening')).body.thresholds).toEqual({ spamMarks: 3 });
    expect((await admin.request('PUT', '/api/admin/screening/thresholds', { spamMarks: 4 })).body).toMatchObject({ thresholds: { spamMarks: 4 }, message: 'Thresholds saved' });
    expect(await screened(d)).toEqual({ screen: false });
    await admin.request('PUT', '/api/admin/screening/thresholds', { spamMarks: 3 });
    expect(await screened(d)).toEqual({ screen: true, by: 'box', action: 'reject' });
  });

  it('spoofed nuisance calls at three businesses list nothing box-wide: no owner acted', async () => {
    const [a, b, c, d] = owners as [Owner, Owner, Owner, Owner];
    const spoofed = '+447700900888';
    for (const [o, callClass] of [[a, 'recorded'], [b, 'silent'], [c, 'sales']] as const) await callFrom(o, spoofed, { callClass, screenedBy: 'summary' });
    expect(await screened(d, spoofed)).toEqual({ screen: false });
    expect((await admin.get('/api/admin/screening?q=900888')).body).toMatchObject({ entries: [], total: 0 });
  });
});

describe('the box-wide list counts its evidence when asked (issue 53)', () => {
  const suspect = '+447700900444';
  const setStatus = (o: Owner, accountStatus: 'active' | 'suspended') => admin.request('PATCH', `/api/admin/users/${o.user.id}`, { accountStatus });
  const entry = async (number: string) => (await admin.get(`/api/admin/screening?q=${number.slice(-6)}`)).body.entries[0];

  it('a suspended owner\'s mark stops counting at once, and counts again when they are reinstated', async () => {
    const [a, b, c, d] = owners as [Owner, Owner, Owner, Owner];
    for (const o of [a, b, c]) await mark(o, await callFrom(o, suspect), true);
    expect(await screened(d, suspect)).toEqual({ screen: true, by: 'box', action: 'reject' });
    expect((await setStatus(b, 'suspended')).status).toBe(200);
    expect(await screened(d, suspect)).toEqual({ screen: false });
    expect(await entry(suspect)).toEqual({ number: suspect, businesses: 2, listed: false, clearedAt: null });
    expect((await setStatus(b, 'active')).status).toBe(200);
    expect(await screened(d, suspect)).toEqual({ screen: true, by: 'box', action: 'reject' });
  });

  it('the admin sees the marks behind a number (which businesses, when, whether each counts); an owner cannot', async () => {
    const [a, b, c] = owners as [Owner, Owner, Owner];
    const res = await admin.get(`/api/admin/screening/${encodeURIComponent(suspect)}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ number: suspect, businesses: 3, listed: true, clearedAt: null, windowDays: MARK_WINDOW_DAYS });
    expect(res.body.marks.map((m: { userId: number }) => m.userId).sort()).toEqual([a, b, c].map((o) => o.user.id).sort());
    for (const m of res.body.marks) expect(m).toEqual({ userId: expect.any(Number), businessName: expect.any(String), markedAt: expect.any(String), standing: 'counts' });
    expect(JSON.stringify(res.body)).not.toContain('secret words');
    expect(await a.client.get(`/api/admin/screening/${encodeURIComponent(suspect)}`)).toMatchObject({ status: 403, body: { message: 'Administrators only.' } });
    expect(await admin.get('/api/admin/screening/07700900001')).toMatchObject({ status: 404, body: { message: 'That number is not on the box-wide list.' } });
    expect(await admin.get('/api/admin/screening/nonsense')).toMatchObject({ status: 400, body: { message: '"nonsense" is not a phone number.' } });
  });

  it('marks older than the window unlist a number without any new event (the clock moves, nothing else)', async () => {
    const [, , , d] = owners as [Owner, Owner, Owner, Owner];
    const listed = async () => (await listBoxEntries(db(), { limit: 500, now: server.services.now(), thresholds: { spamMarks: 3 } })).entries.find((e) => e.number === suspect);
    expect(await screened(d, suspect)).toEqual({ screen: true, by: 'box', action: 'reject' });
    try {
      server.clock.offsetMs = (MARK_WINDOW_DAYS - 1) * 24 * 60 * 60 * 1000;
      expect(await screened(d, suspect)).toEqual({ screen: true, by: 'box', action: 'reject' });
      server.clock.offsetMs = (MARK_WINDOW_DAYS + 1) * 24 * 60 * 60 * 1000;
      expect(await screened(d, suspect)).toEqual({ screen: false });
      expect(await listed()).toEqual({ number: suspect, businesses: 0, listed: false, clearedAt: null });
    } finally {
      server.clock.offsetMs = 0;
    }
  });

  it('a clearing holds: the number stays off until marks newer than it arrive', async () => {
    // b was suspended above, which signed them out: a, c and e mark afresh.
    const [a, , c, d, e] = owners as [Owner, Owner, Owner, Owner, Owner];
    expect((await admin.delete(`/api/admin/screening/${encodeURIComponent(suspect)}`)).status).toBe(200);
    expect(await screened(d, suspect)).toEqual({ screen: false });
    // The old marks are still there, shown as made before the clearing; the lookup stays cleared.
    const why = (await admin.get(`/api/admin/screening/${encodeURIComponent(suspect)}`)).body;
    expect(why).toMatchObject({ businesses: 0, listed: false, clearedAt: expect.any(String) });
    expect(why.marks.map((m: { standing: string }) => m.standing)).toEqual(['before-clearing', 'before-clearing', 'before-clearing']);
    expect(await screened(d, suspect)).toEqual({ screen: false });
    for (const o of [a, c]) expect((await mark(o, await callFrom(o, suspect), true)).status).toBe(200);
    expect(await entry(suspect)).toMatchObject({ businesses: 2, listed: false });
    expect((await mark(e, await callFrom(e, suspect), true)).status).toBe(200);
    expect(await screened(d, suspect)).toEqual({ screen: true, by: 'box', action: 'reject' });
  });
});
