// Call-back reminders with the server's clock moved by hand, across a restart of the pipeline:
// one text per waiting caller, never a second one.
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { calls, users } from '../helpers/tables.js';
import { CALLER, OWNER_MOBILE, startHarness, type Harness } from '../pipeline/harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const HOUR = 3600_000;

async function start(reminderHours: number | null) {
  // The pipeline is not started: passes run when the test says, on the server's clock.
  h = await startHarness({ start: false, owner: { callbackReminderHours: reminderHours } });
  return h;
}
const now = () => h!.server.services.now().getTime();
const reminders = () => h!.twilio.messages.filter((m) => m.body.startsWith('Reminder:'));

describe('call-back reminders', () => {
  it('texts once, N hours after a missed call nobody returned, and not again after a restart', async () => {
    await start(2);
    const id = await h!.finishedCall({ status: 'missed', createdAt: new Date(now() - HOUR) });
    expect(await h!.pipeline.remindCallbacks()).toBe(0); // 1 hour: not yet

    h!.server.clock.offsetMs += HOUR + 60_000;
    expect(await h!.pipeline.remindCallbacks()).toBe(1);
    expect(reminders()).toHaveLength(1);
    expect(reminders()[0]).toMatchObject({ to: OWNER_MOBILE });
    expect(reminders()[0]!.body).toMatch(new RegExp(`^Reminder: you have not called \\${CALLER} back yet \\(missed call on \\d\\d/\\d\\d at \\d\\d:\\d\\d\\)\\. Reply DONE ${id} when called back\\.$`));
    expect((await h!.attempts(id)).map((a) => [a.kind, a.status])).toEqual([['reminder', 'sent']]);
    expect((await h!.call(id)).notificationSent).toBe(false); // the call's own text is another matter

    expect(await h!.pipeline.remindCallbacks()).toBe(0);
    const restarted = h!.restart();
    h!.server.clock.offsetMs += 5 * HOUR;
    expect(await restarted.remindCallbacks()).toBe(0);
    expect(reminders()).toHaveLength(1);
  });

  it('reminds of voicemails too, but not of calls marked called back, answered calls or withheld numbers', async () => {
    await start(1);
    const db = h!.server.database.db;
    const old = new Date(now() - 2 * HOUR);
    const voicemail = await h!.finishedCall({ status: 'voicemail', createdAt: old });
    const done = await h!.finishedCall({ status: 'missed', createdAt: old });
    await db.update(calls).set({ calledBackAt: new Date() }).where(eq(calls.id, done));
    await h!.finishedCall({ status: 'answered', createdAt: old });
    // Withheld as Asterisk leaves it (empty), as the PBX stores it and as carriers send it.
    for (const fromNumber of ['', 'anonymous', ' Restricted ']) {
      const withheld = await h!.finishedCall({ status: 'missed', createdAt: old });
      await db.update(calls).set({ fromNumber }).where(eq(calls.id, withheld));
    }

    expect(await h!.pipeline.remindCallbacks()).toBe(1);
    expect(reminders().map((m) => m.body)).toEqual([expect.stringContaining(`(voicemail on `)]);
    expect(reminders()[0]!.body).toContain(`Reply DONE ${voicemail} when called back.`);
  });

  it('does not remind of a caller on the block list, a refused withheld one or the owner\'s own test call, but does of a VIP', async () => {
    await start(1);
    const db = h!.server.database.db;
    const old = new Date(now() - 2 * HOUR);
    const test = await h!.finishedCall({ status: 'voicemail', createdAt: old });
    await db.update(calls).set({ testCall: true }).where(eq(calls.id, test));
    const blocked = await h!.finishedCall({ status: 'missed', createdAt: old });
    await db.update(calls).set({ callerTag: 'blocked' }).where(eq(calls.id, blocked));
    const refused = await h!.finishedCall({ status: 'voicemail', createdAt: old });
    await db.update(calls).set({ callerTag: 'withheld-refused' }).where(eq(calls.id, refused));
    const vip = await h!.finishedCall({ status: 'missed', createdAt: old });
    await db.update(calls).set({ callerTag: 'vip' }).where(eq(calls.id, vip));

    expect(await h!.pipeline.remindCallbacks()).toBe(1);
    expect(reminders()[0]!.body).toContain(`Reply DONE ${vip} when called back.`);
  });

  it('sends nothing while the owner has reminders off (the default)', async () => {
    await start(null);
    await h!.finishedCall({ status: 'missed', createdAt: new Date(now() - 30 * HOUR) });
    expect(await h!.pipeline.remindCallbacks()).toBe(0);
    expect(h!.twilio.messages).toHaveLength(0);
    expect((await h!.server.database.db.select().from(users).where(eq(users.id, h!.ownerId)).limit(1))[0]!.callbackReminderHours).toBeNull();
  });

  it('does not text about every old call when reminders are switched on', async () => {
    await start(2);
    await h!.finishedCall({ status: 'missed', createdAt: new Date(now() - 3 * 24 * HOUR) });
    const recent = await h!.finishedCall({ status: 'missed', createdAt: new Date(now() - 3 * HOUR) });
    expect(await h!.pipeline.remindCallbacks()).toBe(1);
    expect(reminders()[0]!.body).toContain(`DONE ${recent} `);
  });

  it('gives the reminder back after a provider failure and sends it once on the next pass', async () => {
    await start(1);
    const id = await h!.finishedCall({ status: 'missed', createdAt: new Date(now() - 2 * HOUR) });
    h!.twilio.failNext('Messages', { status: 503, code: 20500, message: 'Service unavailable' });
    expect(await h!.pipeline.remindCallbacks()).toBe(0);
    expect((await h!.call(id)).reminderAt).toBeNull();
    expect(await h!.pipeline.remindCallbacks()).toBe(1);
    expect(await h!.pipeline.remindCallbacks()).toBe(0);
    expect(reminders()).toHaveLength(1);
  });
});
