// Push alerts end to end (issue 54): the real server and post-call pipeline send each alert
// through the durable queue with web-push to the push-service pushDouble() on loopback, which checks
// the VAPID JWT against the box's public key and decrypts the payload with the device's own keys.
import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tablesOf } from '../../core/db/schema.js';
import { pushKey } from '../../core/push/service.js';
import { createCallPath } from '../../core/calls/call-path.js';
import { inviteStaff } from '../../core/team/invite.js';
import { ApiClient } from '../helpers/client.js';
import { pushOpenedPath } from '../../contract/push-alert.js';
import { londonMinute } from '../../core/push/preferences.js';
import { CALLER, hhmm, startPushBox, until, usePushDouble, type PushBox } from './fixture.js';

// Each test starts its own box (sign-up, argon2) on a machine shared by several suites.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

const pushDouble = usePushDouble();

let box: PushBox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

const arrivedAt = (deviceId: string) => pushDouble().arrived.filter((a) => a.device === deviceId);

describe('a call’s summary alerts each device that wants it', () => {
  it('a voicemail’s alert arrives signed by the box’s key and readable only with the device’s keys: caller, first line, buttons, link', async () => {
    box = await startPushBox(pushDouble());
    const phone = await box.device();
    const callId = await box.finishedCall();
    await until(() => expect(arrivedAt(phone.deviceId)).toHaveLength(1));

    const push = arrivedAt(phone.deviceId)[0]!;
    expect(pushDouble().refused).toEqual([]);
    expect(push.jwt.aud).toBe(pushDouble().origin);
    expect(push.jwt.sub).toBe(`mailto:${box.server.config.support.email}`);
    expect(push.urgency).toBe('normal');
    expect(push.ttl).toBe(86_400);
    expect(push.payload).toMatchObject({
      v: 1,
      kind: 'call',
      title: '+44 770 090 0123',
      body: 'Dan says the boiler has stopped and there is no hot water.',
      urgent: false,
      tag: `call-${callId}`,
      callId,
      callBack: CALLER,
      replyUrl: `/dashboard/texts?caller=${encodeURIComponent(CALLER)}`,
      url: `/dashboard?call=${callId}`,
    });
    expect(push.payload).not.toHaveProperty('live');
    expect(Date.parse(push.payload.sentAt as string)).not.toBeNaN();
    // The text goes as ever, beside the push.
    await until(async () => expect(await box!.texts(callId)).toBe(1));
    // Once sent, the box keeps the alert's shape only: no caller number or words to erase later.
    await until(async () => expect((await box!.server.services.push.alertsOf(box!.ownerId, `call-${callId}-summary`))[0]?.status).toBe('sent'));
    const [kept] = await box.server.services.push.alertsOf(box.ownerId, `call-${callId}-summary`);
    expect(JSON.stringify(kept!.payload)).not.toMatch(/7700 ?900 ?123|boiler/);
    expect(kept!.payload).toMatchObject({ alertId: push.payload.alertId, callId, title: '', body: '' });
  });

  it('an urgent call says so and goes at high urgency; a device taking urgent calls only gets it, and not the ordinary call', async () => {
    box = await startPushBox(pushDouble());
    const every = await box.device();
    const urgentOnly = await box.device({ calls: 'urgent' });
    const none = await box.device({ calls: 'none' });
    const urgent = await box.finishedCall({ urgency: 'urgent', urgencyReason: 'no heating for an elderly tenant' });
    await until(() => expect(arrivedAt(urgentOnly.deviceId)).toHaveLength(1));
    await until(() => expect(arrivedAt(every.deviceId)).toHaveLength(1));
    const push = arrivedAt(urgentOnly.deviceId)[0]!;
    expect(push.urgency).toBe('high');
    expect(push.payload).toMatchObject({ kind: 'urgent', urgent: true, body: 'Urgent: Dan says the boiler has stopped and there is no hot water.', callId: urgent });

    const ordinary = await box.finishedCall();
    await until(() => expect(arrivedAt(every.deviceId)).toHaveLength(2));
    await until(async () => expect(await box!.texts(ordinary)).toBe(1));
    expect(arrivedAt(urgentOnly.deviceId)).toHaveLength(1);
    expect(arrivedAt(none.deviceId)).toHaveLength(0);
    expect(await box.server.services.push.alertsOf(box.ownerId, `call-${ordinary}-summary`)).toHaveLength(1);
  });

  it('nothing reaches a device in its quiet hours (London time), while another device and the text still get the call', async () => {
    box = await startPushBox(pushDouble());
    const now = londonMinute(box.server.services.now().getTime());
    const quiet = await box.device({ quietStart: hhmm(now + 1380), quietEnd: hhmm(now + 60) }); // an hour either side, across midnight when it falls there
    const awake = await box.device({ quietStart: hhmm(now + 60), quietEnd: hhmm(now + 120) });
    const callId = await box.finishedCall();
    await until(() => expect(arrivedAt(awake.deviceId)).toHaveLength(1));
    await until(async () => expect(await box!.texts(callId)).toBe(1));
    expect(arrivedAt(quiet.deviceId)).toHaveLength(0);
    expect(await box.server.services.push.alertsOf(box.ownerId, `call-${callId}-summary`)).toHaveLength(1);
  });

  it('a caller’s text alerts the devices that take caller texts, with Reply to the thread', async () => {
    box = await startPushBox(pushDouble());
    const texts = await box.device();
    const noTexts = await box.device({ callerTexts: false });
    const { phoneNumbers } = tablesOf(box.server.database.db);
    await box.server.database.db.insert(phoneNumbers).values({ phoneNumber: '+447700900001', provider: 'static', providerSid: 'push-did', userId: box.ownerId, assignedAt: new Date() });
    const handled = await box.server.services.callerTexts.callerText()({ messageSid: 'SMpush1', channel: 'sms', from: CALLER, to: '+447700900001', body: 'Can you come on Friday instead?' }, []);
    expect(handled).toBe(true);
    await until(() => expect(arrivedAt(texts.deviceId)).toHaveLength(1));
    expect(arrivedAt(texts.deviceId)[0]!.payload).toMatchObject({ kind: 'caller-text', title: 'Text from +44 770 090 0123', body: 'Can you come on Friday instead?', replyUrl: `/dashboard/texts?caller=${encodeURIComponent(CALLER)}` });
    expect(arrivedAt(noTexts.deviceId)).toHaveLength(0);
  });
});

describe('a team member’s own phone', () => {
  it('with “their own calls” gets alerts for the calls taken for them only, and lists only their own devices', async () => {
    box = await startPushBox(pushDouble());
    const db = box.server.database.db;
    const { staff } = tablesOf(db);
    const [sarah, tom] = await db.insert(staff).values([{ userId: box.ownerId, name: 'Sarah', otherNames: [], position: 1 }, { userId: box.ownerId, name: 'Tom', otherNames: [], position: 2 }]).returning();
    const { token } = await inviteStaff(db, box.ownerId, sarah!.id, 'sarah-push@example.co.uk', new Date());
    const client = new ApiClient(box.server.url);
    expect((await client.post('/api/auth/reset-password', { token, newPassword: 'Staff-Pass-1', confirmPassword: 'Staff-Pass-1' })).status).toBe(200);
    expect((await client.post('/api/auth/login', { email: 'sarah-push@example.co.uk', password: 'Staff-Pass-1' })).status).toBe(200);
    const ownerPhone = await box.device();
    const sarahPhone = await box.device({}, client);
    expect((await client.get('/api/user/push/devices')).body.devices.map((d: { id: number }) => d.id)).toEqual([sarahPhone.id]);
    expect((await box.owner.get('/api/user/push/devices')).body.devices.map((d: { id: number }) => d.id)).toEqual([ownerPhone.id]);

    const toms = await box.finishedCall({ staffId: tom!.id });
    const hers = await box.finishedCall({ staffId: sarah!.id });
    await until(() => expect(arrivedAt(ownerPhone.deviceId)).toHaveLength(2));
    await until(() => expect(arrivedAt(sarahPhone.deviceId)).toHaveLength(1));
    expect(arrivedAt(sarahPhone.deviceId)[0]!.payload.callId).toBe(hers);
    expect(await box.server.services.push.alertsOf(box.ownerId, `call-${toms}-summary`)).toHaveLength(1);
  });
});

describe('a live call flagged urgent', () => {
  it('an agent call in progress flagged urgent through the call path alerts the devices that take urgent calls, with Listen', async () => {
    box = await startPushBox(pushDouble());
    const urgentOnly = await box.device({ calls: 'urgent' });
    const none = await box.device({ calls: 'none' });
    const { calls } = tablesOf(box.server.database.db);
    const [call] = await box.server.database.db
      .insert(calls)
      .values({ userId: box.ownerId, fromNumber: CALLER, toNumber: '+447700900001', status: 'answered', mode: 'agent', duration: 0, createdAt: new Date() })
      .returning();
    // As root/compose.ts wires it: the call path's urgency flag reaches push alerts.
    const callPath = createCallPath(box.server.database.db, box.server.services.log, undefined, undefined, (id, reason) => void box!.server.services.push.alertLiveUrgent(id, reason));
    await callPath.flagUrgent(call!.id, 'gas smell in the kitchen');
    await until(() => expect(arrivedAt(urgentOnly.deviceId)).toHaveLength(1));
    const push = arrivedAt(urgentOnly.deviceId)[0]!;
    expect(push.urgency).toBe('high');
    expect(push.ttl).toBe(300);
    expect(push.payload).toMatchObject({ kind: 'urgent', live: true, urgent: true, callId: call!.id, tag: `call-${call!.id}`, body: 'Urgent: Call in progress: gas smell in the kitchen', url: `/dashboard/live?call=${call!.id}`, callBack: CALLER });
    expect(arrivedAt(none.deviceId)).toHaveLength(0);
  });
});

describe('the push service’s answers', () => {
  it('410 Gone removes the device; its alert is kept as failed', async () => {
    box = await startPushBox(pushDouble());
    const phone = await box.device();
    pushDouble().script.push(410);
    const callId = await box.finishedCall();
    const { pushSubscriptions } = tablesOf(box.server.database.db);
    await until(async () => expect(await box!.server.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, phone.id))).toHaveLength(0));
    const [alert] = await box.server.services.push.alertsOf(box.ownerId, `call-${callId}-summary`);
    expect(alert).toMatchObject({ status: 'failed', subscriptionId: null });
    expect(alert!.error).toContain('410');
    expect((await box.owner.get('/api/user/push/devices')).body.devices).toEqual([]);
    await until(async () => expect(await box!.texts(callId)).toBe(1));
  });

  it('a push service that is down is retried with back-off and the alert arrives when it is back; the text is not held up', async () => {
    box = await startPushBox(pushDouble(), { maxAttempts: 30 });
    const phone = await box.device();
    pushDouble().always = 500;
    const callId = await box.finishedCall();
    const alerts = () => box!.server.services.push.alertsOf(box!.ownerId, `call-${callId}-summary`);
    await until(async () => expect(await alerts()).toHaveLength(1));
    const [row] = await alerts();
    await until(async () => expect((await box!.server.services.push.queue.byKey(pushKey(row!.id)))!.attempts).toBeGreaterThanOrEqual(2));
    // The owner's text went while the push service was failing.
    await until(async () => expect(await box!.texts(callId)).toBe(1));
    expect(arrivedAt(phone.deviceId)).toHaveLength(0);
    expect((await alerts())[0]).toMatchObject({ status: 'pending' });

    pushDouble().always = 201;
    await until(() => expect(arrivedAt(phone.deviceId)).toHaveLength(1));
    await until(async () => expect((await alerts())[0]).toMatchObject({ status: 'sent' }));
  });
});

describe('text me only if the push was not opened within N minutes', () => {
  const settle = async (b: PushBox, callId: number) => {
    await until(async () => expect((await b.server.services.push.queue.byKey(`push-text:call-${callId}-summary`))?.status).toBe('done'));
  };

  it('opened: no text, even after the wait', async () => {
    box = await startPushBox(pushDouble());
    expect((await box.owner.request('PUT', '/api/user/push/settings', { textDelayMinutes: 5 })).status).toBe(200);
    const phone = await box.device();
    const callId = await box.finishedCall();
    await until(() => expect(arrivedAt(phone.deviceId)).toHaveLength(1));
    const alertId = arrivedAt(phone.deviceId)[0]!.payload.alertId as string;
    expect((await box.owner.post(pushOpenedPath(alertId))).status).toBe(200);
    // Idempotent: the worker posts on every click.
    expect((await box.owner.post(`/api/user/push/alerts/${alertId}/opened`)).status).toBe(200);
    box.server.clock.offsetMs += 6 * 60_000;
    box.server.services.push.worker.kick();
    await settle(box, callId);
    expect(await box.texts(callId)).toBe(0);
  });

  it('not opened: the text goes once the N minutes are over, not before', async () => {
    box = await startPushBox(pushDouble());
    await box.owner.request('PUT', '/api/user/push/settings', { textDelayMinutes: 5 });
    const phone = await box.device();
    const callId = await box.finishedCall();
    await until(() => expect(arrivedAt(phone.deviceId)).toHaveLength(1));
    await until(async () => expect(await box!.server.services.push.queue.byKey(`push-text:call-${callId}-summary`)).toBeDefined());
    expect(await box.texts(callId)).toBe(0);
    box.server.clock.offsetMs += 5 * 60_000 + 1000;
    box.server.services.push.worker.kick();
    await until(async () => expect(await box!.texts(callId)).toBe(1));
  });

  it('no push could be delivered (the device is gone): the text goes at once', async () => {
    box = await startPushBox(pushDouble());
    await box.owner.request('PUT', '/api/user/push/settings', { textDelayMinutes: 30 });
    await box.device();
    pushDouble().script.push(410);
    const callId = await box.finishedCall();
    await until(async () => expect(await box!.texts(callId)).toBe(1));
  });

  it('no device at all: the text goes at once', async () => {
    box = await startPushBox(pushDouble());
    await box.owner.request('PUT', '/api/user/push/settings', { textDelayMinutes: 30 });
    const callId = await box.finishedCall();
    await until(async () => expect(await box!.texts(callId)).toBe(1));
  });
});

describe('the box’s keys', () => {
  it('are made at first start in the data directory, readable by the box only, and served as the public key', async () => {
    box = await startPushBox(pushDouble());
    const file = box.server.config.push.vapidFile;
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as { publicKey: string };
    const served = (await box.owner.get('/api/user/push/key')).body as { publicKey: string };
    expect(served.publicKey).toBe(stored.publicKey);
    expect(Buffer.from(served.publicKey, 'base64url')).toHaveLength(65);
  });
});
