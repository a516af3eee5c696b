// Call handling on a real Asterisk 20.17.0, called by SIPp: the owner's hours switch the flow
// and the greeting, a blocked caller is refused without a recording or a text, a VIP rings the
// owner's phone, and withheld numbers follow the owner's policy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { CallHandlingSettings } from '../../contract/call-handling.js';
import { defaultCallHandling, saveCallHandling } from '../../core/call-handling/index.js';
import { notifications } from '../helpers/tables.js';
import { REFUSED, WITHHELD_REFUSED } from '../../dialogue/spoken/call-lines.js';
import { chooseGreeting } from '../../dialogue/spoken/greeting.js';
import { waitUntil } from '../helpers/wait.js';
import { envelopeMatch, readWavSamples, speech } from './audio.js';
import { ANSWERS_ONLY, heardGreetingAndBeep, realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';
import { sqliteOf } from '../../core/db/client.js';

const real = realPbxAvailability();
const allDay = [{ open: '00:00', close: '23:59' }];
const everyDay = { mon: allDay, tue: allDay, wed: allDay, thu: allDay, fri: allDay, sat: allDay, sun: allDay };
const never = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };

describe.skipIf(!real.ok)('call handling on a real Asterisk, called over SIP', () => {
  let h: RealPbx;
  beforeAll(async () => {
    h = await startRealPbx({ ownerPhone: true, pipeline: true, agent: true, env: ANSWERS_ONLY });
  });
  afterAll(async () => {
    await h?.close();
  });

  const heardMatches = async (heard: Int16Array, text: string) => envelopeMatch(readWavSamples(await h.promptFile(text)), heard).score;
  async function business(settings: Partial<CallHandlingSettings>, fields: Parameters<RealPbx['business']>[0] = {}) {
    const b = await h.business({ businessName: 'Hale Plumbing', ...fields });
    await saveCallHandling(h.server.database.db, b.userId, { ...defaultCallHandling(), holidayNations: [], ...settings }, new Date());
    return b;
  }
  const sentFor = async (callId: number) => await h.server.database.db.select().from(notifications).where(eq(notifications.callId, callId));

  it('closed hours: the closed-hours greeting plays and the message is taken', async () => {
    const closedGreeting = 'We are closed for the day. Please leave a message and we will call you in the morning.';
    const { did } = await business({ hoursEnabled: true, hours: never, closedMode: 'voicemail', closedGreeting });
    const call = await h.call(did);
    await heardGreetingAndBeep(call);
    expect(await heardMatches(call.media.heard(), chooseGreeting({ businessName: 'Hale Plumbing', callGreeting: closedGreeting }))).toBeGreaterThan(0.8);
    await call.media.say(speech('Hello, please call me back tomorrow about a quote.'));
    expect((await call.done).exitCode).toBe(0);
    expect(await h.finishedRow(did)).toMatchObject({ status: 'voicemail', period: 'closed', mode: 'voicemail' });
  }, 90_000);

  it('open hours: the usual greeting plays, and the call is logged as in hours', async () => {
    const { did } = await business({ hoursEnabled: true, hours: everyDay, closedGreeting: 'We are closed for the day.' }, { callGreeting: 'Hale Plumbing, leave a message after the tone.' });
    const call = await h.call(did);
    await heardGreetingAndBeep(call);
    expect(await heardMatches(call.media.heard(), chooseGreeting({ businessName: 'Hale Plumbing', callGreeting: 'Hale Plumbing, leave a message after the tone.' }))).toBeGreaterThan(0.8);
    await call.hangUp();
    expect((await call.done).exitCode).toBe(0);
    expect(await h.finishedRow(did)).toMatchObject({ period: 'open' });
  }, 90_000);

  it('a blocked caller hears the refusal and is hung up on: logged and tagged, nothing recorded, no text', async () => {
    const { did } = await business({ blockList: ['+447700900555'] });
    const call = await h.call(did, '07700900555'); // the national spelling: the list holds E.164
    expect((await call.done).exitCode).toBe(0); // Asterisk hung up
    expect(await heardMatches(call.media.heard(), REFUSED)).toBeGreaterThan(0.8);
    const row = await h.finishedRow(did);
    expect(row).toMatchObject({ status: 'missed', callerTag: 'blocked', recordingFile: null });
    // The pipeline has had the call and sent nothing for it.
    await waitUntil(async () => expect(sqliteOf(h.server.database).prepare("select count(*) n from jobs where status in ('pending','running')").get()).toEqual({ n: 0 }), 20_000);
    expect(await sentFor(row.id)).toEqual([]);
  }, 90_000);

  it('a VIP rings the owner’s phone first even when ring-first is off, and is tagged', async () => {
    const to = h.ownerPhone!.number('busy');
    const { did } = await business({ transferNumber: to, vipList: ['+447700900555'], openRingFirst: false });
    const call = await h.call(did);
    await h.ownerPhone!.nextCall(to);
    await heardGreetingAndBeep(call);
    await call.hangUp();
    expect((await call.done).exitCode).toBe(0);
    expect(await h.finishedRow(did)).toMatchObject({ callerTag: 'vip', transferOutcome: 'busy' });
  }, 90_000);

  it('withheld numbers refused: the caller hears why and is hung up on', async () => {
    const { did } = await business({ withheld: 'refuse' });
    const call = await h.call(did, 'anonymous');
    expect((await call.done).exitCode).toBe(0);
    expect(await heardMatches(call.media.heard(), WITHHELD_REFUSED)).toBeGreaterThan(0.8);
    expect(await h.finishedRow(did)).toMatchObject({ status: 'missed', callerTag: 'withheld-refused', recordingFile: null });
  }, 90_000);

  it('withheld numbers message-only: an agent-mode business takes a voicemail instead', async () => {
    const { did } = await business({ withheld: 'message-only' }, { aiMode: 'agent' });
    const call = await h.call(did, 'anonymous');
    await heardGreetingAndBeep(call);
    expect(await heardMatches(call.media.heard(), chooseGreeting({ businessName: 'Hale Plumbing', callGreeting: null }))).toBeGreaterThan(0.8);
    await call.media.say(speech('It is me, you know who, call me back.'));
    expect((await call.done).exitCode).toBe(0);
    expect(await h.finishedRow(did)).toMatchObject({ status: 'voicemail', mode: 'voicemail', callerTag: null });
  }, 90_000);

  it('a known caller to the same business is answered as usual (the lists only catch their own numbers)', async () => {
    const { did } = await business({ blockList: ['+447700900111'], withheld: 'refuse' });
    const call = await h.call(did);
    await heardGreetingAndBeep(call);
    await call.hangUp();
    expect((await call.done).exitCode).toBe(0);
    expect(await h.finishedRow(did)).toMatchObject({ callerTag: null, mode: 'voicemail' });
  }, 90_000);
});
