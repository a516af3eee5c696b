// Voicemail's team menu (issue 58) on a real Asterisk 20.17.0: a business with two staff
// members with confirmed phones greets callers with "To speak to someone, press 1 for Sarah,
// 2 for Tom." A caller (SIPp) who presses 2 is put through to Tom's phone (the SIPp owner
// phone, the trunk's far end) with the warm-transfer briefing when Tom is working, or leaves a
// message for Tom when he is not; a caller who presses nothing leaves a voicemail as ever.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessGreeting } from '../../dialogue/spoken/greeting.js';
import { messageForLine, teamMenuLine } from '../../dialogue/spoken/team-menu.js';
import { waitUntil } from '../helpers/wait.js';
import { speech } from './audio.js';
import { heardBeep, promptHeard, realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';
import { saidAndHeard, teamBusiness } from './staff-phones.js';

const real = realPbxAvailability();
const MENU = teamMenuLine([
  { digit: '1', name: 'Sarah' },
  { digit: '2', name: 'Tom' },
]);

describe.skipIf(!real.ok)('the voicemail greeting’s team menu, on a real Asterisk', () => {
  let h: RealPbx;
  beforeAll(async () => {
    h = await startRealPbx({ ownerPhone: true });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('press 2 during the greeting: Tom’s phone rings, Tom takes the call and the two are connected; the row names Tom', async () => {
    const { did, staff } = await teamBusiness(h, { staff: [{ name: 'Sarah', phone: 'answers' }, { name: 'Tom', phone: 'answers' }] });
    const [sarah, tom] = staff;
    const call = await h.call(did);
    await waitUntil(() => expect(call.media.soundMs()).toBeGreaterThan(500), 30_000, 20);
    await call.media.digits('2');
    const tomsPhone = await h.ownerPhone!.nextCall(tom!.phone);
    await waitUntil(() => expect(tomsPhone.media.soundMs()).toBeGreaterThan(1000), 30_000, 20);
    await tomsPhone.media.digits('1');
    await waitUntil(async () => {
      const callId = (await h.rows(did))[0]?.id;
      if (!h.coreLog.some((l) => l.callId === callId && l.msg === 'transfer: caller put through to the owner')) throw new Error('not put through yet');
    }, 30_000);
    await saidAndHeard(tomsPhone.media, call.media, 'Hello, Tom speaking.');
    await tomsPhone.hangUp();
    expect((await call.done).exitCode).toBe(0);
    expect(await h.finishedRow(did)).toMatchObject({ status: 'answered', transferOutcome: 'connected', staffId: tom!.id, routingNote: 'Pressed 2 for Tom: put through to Tom', recordingFile: null });
    expect(h.ownerPhone!.wasCalled(sarah!.phone)).toBe(false);
  }, 120_000);

  it('press 2 for Tom when he is not working: the caller is told, leaves the message for Tom, and his phone never rings', async () => {
    const { did, staff } = await teamBusiness(h, { staff: [{ name: 'Sarah', phone: 'answers' }, { name: 'Tom', phone: 'answers', working: false }] });
    const tom = staff[1]!;
    const call = await h.call(did);
    await waitUntil(() => expect(call.media.soundMs()).toBeGreaterThan(500), 30_000, 20);
    const pressedAt = performance.now();
    await call.media.digits('2');
    const beepEnded = await heardBeep(call);
    expect(await promptHeard(h, call.media.heard(pressedAt), messageForLine('Tom', false))).toBeGreaterThan(0.8);
    await call.media.say(speech('Tom, please call me back about the boiler.'));
    expect((await call.done).exitCode).toBe(0);
    expect(beepEnded).toBeGreaterThan(pressedAt);
    const row = await h.finishedRow(did);
    expect(row).toMatchObject({ status: 'voicemail', staffId: tom.id, routingNote: 'Pressed 2 for Tom: not working now, message taken for Tom', recordingFile: `call-${row.id}.wav` });
    expect(h.ownerPhone!.wasCalled(tom.phone)).toBe(false);
  }, 120_000);

  it('no key: the greeting and the menu, then the tone and a voicemail as before, for nobody in particular', async () => {
    const { did } = await teamBusiness(h, { staff: [{ name: 'Sarah', phone: 'answers' }, { name: 'Tom', phone: 'answers' }] });
    const call = await h.call(did);
    await heardBeep(call);
    const greeting = call.media.heard();
    expect(await promptHeard(h, greeting, businessGreeting('Hale Plumbing'))).toBeGreaterThan(0.8);
    expect(await promptHeard(h, greeting, MENU)).toBeGreaterThan(0.8);
    await call.media.say(speech('Please call me back this afternoon.'));
    expect((await call.done).exitCode).toBe(0);
    const row = await h.finishedRow(did);
    expect(row).toMatchObject({ status: 'voicemail', staffId: null, routingNote: null, recordingFile: `call-${row.id}.wav` });
  }, 120_000);
});
