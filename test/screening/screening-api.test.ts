// Issue 43's API: an owner marks a call's number SPAM or NOT SPAM (their lists only), three
// businesses' marks put a number on the box-wide list, which screens it for a fourth business
// but not for one that allowed it, and the admin sees numbers and counts only, and clears them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, phoneNumbers } from '../helpers/tables.js';
import { screenBeforeAnswer } from '../../core/screening/lookup.js';
import { refreshBoxEntry } from '../../core/screening/box-list.js';
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
const screened = (o: Owner, from = NUISANCE) => screenBeforeAnswer(db(), o.did, from);

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
    expect(entry).toEqual({ number: NUISANCE, businesses: 3, nuisanceBusinesses: 0, listed: true, clearedAt: null });
    expect(res.body.thresholds).toEqual({ spamMarks: 3, nuisanceBusinesses: 3 });
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
    expect((await a.client.request('PUT', '/api/admin/screening/thresholds', { spamMarks: 2, nuisanceBusinesses: 2 })).status).toBe(403);
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
    expect(await admin.request('PUT', '/api/admin/screening/thresholds', { spamMarks: 1, nuisanceBusinesses: 3 })).toMatchObject({
      status: 400,
      body: { message: 'Each threshold must be a whole number of businesses from 2 to 100.' },
    });
    expect((await admin.request('PUT', '/api/admin/screening/thresholds', { spamMarks: 4, nuisanceBusinesses: 3 })).body).toMatchObject({ thresholds: { spamMarks: 4, nuisanceBusinesses: 3 }, message: 'Thresholds saved' });
    expect(await screened(d)).toEqual({ screen: false });
    await admin.request('PUT', '/api/admin/screening/thresholds', { spamMarks: 3, nuisanceBusinesses: 3 });
    expect(await screened(d)).toEqual({ screen: true, by: 'box', action: 'reject' });
  });

  it('nuisance calls classified for three businesses in a day list a number nobody marked', async () => {
    const [a, b, c, d] = owners as [Owner, Owner, Owner, Owner];
    const robot = '+447700900888';
    for (const o of [a, b, c]) await callFrom(o, robot, { callClass: 'recorded', screenedBy: 'summary' });
    // A wrong number is screened but is no nuisance: it never counts.
    await callFrom(d, robot, { callClass: 'wrong-number', screenedBy: 'summary' });
    await refreshBoxEntry(db(), robot, new Date());
    expect((await admin.get('/api/admin/screening?q=900888')).body.entries).toEqual([{ number: robot, businesses: 0, nuisanceBusinesses: 3, listed: true, clearedAt: null }]);
    expect(await screened(d, robot)).toEqual({ screen: true, by: 'box', action: 'reject' });
  });
});
