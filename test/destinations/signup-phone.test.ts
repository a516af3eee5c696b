import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, jobs } from '../helpers/tables.js';
import { postCallKey } from '../../core/post-call/post-call.js';
import { signInAdmin, signupBody } from '../helpers/accounts.js';
import { ApiClient } from '../helpers/client.js';
import { textsTo } from '../helpers/destinations.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { waitUntil } from '../helpers/wait.js';
import { createPipeline, FAST, type Pipeline } from '../pipeline/harness.js';

// Issue 39's low: the phone typed at sign-up ("We'll send call notifications to this number")
// is a destination waiting for its code, not one in use. The anonymous form texts nothing;
// the admin's approval starts the same confirmation as a changed notification number, and
// until the code comes back no summary goes there.
let server: TestServer;
let pipeline: Pipeline;
beforeAll(async () => {
  server = await startTestServer();
  pipeline = createPipeline(server.services, {}, FAST);
  pipeline.start();
});
afterAll(async () => {
  await pipeline.stop();
  await server.close();
});

const DID = '+447700900001';
const CODE = /^Your call-answering confirmation code is (\d{6})\. Enter it under Notification Settings/;

/** Signs up through the public form with `phone` as the business phone; the request waits for review. */
async function signUp(phone: string) {
  const body = signupBody({ businessPhone: phone });
  const client = new ApiClient(server.url);
  const res = await client.post('/api/auth/signup', body);
  expect(res.status).toBe(201);
  return { client, body, id: res.body.user.id as number };
}

async function approveAndSignIn(owner: Awaited<ReturnType<typeof signUp>>) {
  const admin = await signInAdmin(server);
  const approved = await admin.post(`/api/admin/approvals/${owner.id}/approve`);
  expect(approved.status).toBe(200);
  expect((await owner.client.post('/api/auth/login', { email: owner.body.businessEmail, password: owner.body.password })).status).toBe(200);
  return approved;
}

/** A missed call to the owner, finished as the PBX finishes it; resolves once its post-call job is done. */
async function missedCall(userId: number) {
  const [row] = await server.database.db
    .insert(calls)
    .values({ userId, fromNumber: '+447700900555', toNumber: DID, status: 'missed', mode: 'voicemail', duration: 0, createdAt: new Date(), endedAt: new Date() })
    .returning();
  for (const hook of server.services.hooks.callFinished) hook(row!.id);
  await waitUntil(async () => {
    const [job] = await server.database.db.select().from(jobs).where(eq(jobs.key, postCallKey(row!.id)));
    expect(job?.status).toBe('done');
  }, 30_000);
  return (await server.database.db.select().from(calls).where(eq(calls.id, row!.id)))[0]!;
}

const unconfirmed = (n: string) =>
  `Nothing was texted: your number ${n} is not confirmed yet. Confirm it under Notification Settings: enter the code we sent to ${n}, or save the number there to get a new one.`;
const summaries = (to: string) => textsTo(server, to).filter((t) => t.body.startsWith('Missed call from'));

describe('the phone given at sign-up', () => {
  it('gets one code when the admin approves, no summary until the code comes back, and summaries after', async () => {
    const owner = await signUp('07700 900311');
    expect(owner.body.businessPhone).toBe('07700 900311');
    // The anonymous form texts nothing, and the number is not in use.
    expect(textsTo(server, '+447700900311')).toEqual([]);

    await approveAndSignIn(owner);
    const texts = textsTo(server, '+447700900311');
    expect(texts).toHaveLength(1);
    expect(texts[0]!.body).toMatch(CODE);
    const me = (await owner.client.get('/api/auth/me')).body.user;
    expect(me).toMatchObject({ phoneNumber: '+447700900311', notificationNumber: null });
    expect((await owner.client.get('/api/user/destinations')).body.pending).toEqual([{ kind: 'sms', destination: '+447700900311', expiresAt: expect.any(String) }]);

    const before = await missedCall(owner.id);
    expect(textsTo(server, '+447700900311')).toHaveLength(1);
    expect(before).toMatchObject({
      notificationSent: false,
      notificationError: unconfirmed('+447700900311'),
    });

    const ok = await owner.client.post('/api/user/destinations/confirm', { kind: 'sms', code: CODE.exec(texts[0]!.body)![1] });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe('Notification number confirmed: call notifications now go to +447700900311.');

    const after = await missedCall(owner.id);
    expect(after).toMatchObject({ notificationSent: true, notificationError: null });
    expect(summaries('+447700900311')).toEqual([expect.objectContaining({ body: expect.stringMatching(new RegExp(`^Missed call from \\+447700900555 at \\d\\d:\\d\\d\\. No message was left\\. Reply DONE ${after.id} when called back\\.$`)) })]);
  });

  it('a wrong number typed at sign-up gets the code and never a summary', async () => {
    // The owner mistyped a digit: the stranger at +447700900399 gets one code, which they ignore.
    const owner = await signUp('07700 900399');
    await approveAndSignIn(owner);
    expect(textsTo(server, '+447700900399').map((t) => CODE.test(t.body))).toEqual([true]);
    await missedCall(owner.id);
    await missedCall(owner.id);
    // The owner puts it right under Notification Settings; the stranger still gets nothing more.
    expect((await owner.client.patch('/api/user/settings', { notificationNumber: '07700 900398' })).status).toBe(200);
    await missedCall(owner.id);
    expect(textsTo(server, '+447700900399')).toHaveLength(1);
    expect(summaries('+447700900399')).toEqual([]);
  });

  it('texts no code at approval to a landline, and tells the owner on the call to add a mobile (issue 57 item 6)', async () => {
    const owner = await signUp('020 7946 0311');
    const approved = await approveAndSignIn(owner);
    expect(approved.body.user.accountStatus).toBe('active');
    expect(textsTo(server, '+442079460311')).toEqual([]);
    expect((await owner.client.get('/api/user/destinations')).body.pending).toEqual([]);
    const call = await missedCall(owner.id);
    expect(textsTo(server, '+442079460311')).toEqual([]);
    expect(call).toMatchObject({
      notificationSent: false,
      notificationError: 'Nothing was texted: your number +442079460311 is a landline, and landlines cannot receive texts. Add the mobile you want call texts on under Notification Settings.',
    });
  });

  it('texts no code at approval to a number the box may not text, and approval still stands', async () => {
    const owner = await signUp('0909 879 0000');
    const approved = await approveAndSignIn(owner);
    expect(approved.body.message).toBe('User approved');
    expect(approved.body.user.accountStatus).toBe('active');
    expect(textsTo(server, '+449098790000')).toEqual([]);
    expect((await owner.client.get('/api/user/destinations')).body.pending).toEqual([]);
    const call = await missedCall(owner.id);
    expect(textsTo(server, '+449098790000')).toEqual([]);
    expect(call).toMatchObject({ notificationSent: false, notificationError: unconfirmed('+449098790000') });
  });
});
