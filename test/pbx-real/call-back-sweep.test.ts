// The agent's call-backs end to end (issue 56), on a real Asterisk 20.17.0: rows recorded
// through the call-back store, the core's own sweep (services.callBacks) started by the
// composition root with the PBX's real dialler, one pass driven by the test, and the SIPp phone
// at the trunk's far end (owner-phone.ts) as the caller being rung back. The sweep's clock is
// the test server's (h.server.clock), so "open" and "closed" do not depend on when this runs.
// The PBX reads that clock too for the call row's start and the trunk's daily minutes; the row's
// end is Asterisk's clock, and the agent's team rota during the conversation the wall clock:
// neither plays a part in what is proved here.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { recordCallBackWish } from '../../core/call-backs-store/store.js';
import { tablesOf, type CallBackRow } from '../../core/db/schema.js';
import { startLocalInbox } from '../../core/followup/local-inbox.js';
import { callBackOpening } from '../../dialogue/spoken/call-back-lines.js';
import { insertCalls } from '../calls/seed.js';
import { dropText } from '../caller-texts/helpers.js';
import { hearsAgent } from './agent-caller.js';
import { speech } from './audio.js';
import { shownTo, untilSpokenTo } from './called-party.js';
import { realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';

const real = realPbxAvailability();
const BUSINESS = 'Hale Plumbing';
// Wednesday 9 December 2026, 10:00 London (GMT): open by the default hours (Mon–Fri 09:00–17:30).
const OPEN = '2026-12-09T10:00:00.000Z';
// Saturday 12 December 2026, 11:00 London: closed until Monday 14 December, 09:00.
const SATURDAY = '2026-12-12T11:00:00.000Z';
const MONDAY_OPENING = '2026-12-14T09:00:00.000Z';

describe.skipIf(!real.ok)('the core sweeps due call-backs and the PBX rings them, on a real Asterisk (issue 56)', () => {
  let h: RealPbx;
  beforeAll(async () => {
    h = await startRealPbx({
      ownerPhone: true,
      agent: true,
      callBacks: true,
      // Three conversation slots: a call-back never takes the last one (inbound callers first).
      // The sweep's own timer is an hour off: each test sweeps by hand.
      env: { OLLAMA_SLOTS: '3', WHISPER_SLOTS: '1', CALL_BACK_SWEEP_MS: '3600000' },
    });
    // Started by root/compose.ts with the PBX's dialler, not by this test.
    expect(h.server.services.callBacks.dialling).toBe(true);
  });
  afterAll(async () => {
    await h?.close();
  });
  // A test's leftovers never fall due in the next one's sweep.
  afterEach(async () => {
    const db = h.server.database.db;
    const { callBacks } = tablesOf(db);
    await db.update(callBacks).set({ state: 'cancelled' }).where(eq(callBacks.state, 'waiting'));
  });

  /** Sets the core's clock (the sweep's `now`) to `iso`. */
  const at = (iso: string) => {
    h.server.clock.offsetMs = Date.parse(iso) - Date.now();
  };
  const now = () => h.server.services.now();

  /** A business, and a call-back due now to `caller` from a voicemail they left it. */
  async function dueCallBack(caller: string): Promise<{ cb: CallBackRow; did: string; userId: number }> {
    const { userId, did } = await h.business({ businessName: BUSINESS });
    const [call] = await insertCalls(h.server, [{ userId, status: 'voicemail', fromNumber: caller, toNumber: did, aiSummary: 'A leak under the kitchen sink; wants someone this week.', endedAt: now() }]);
    const cb = await recordCallBackWish(h.server.database.db, { userId, firstCallId: call!.id, callerNumber: caller, dueAt: now(), source: 'voicemail' }, now());
    return { cb, did, userId };
  }

  async function row(id: number): Promise<CallBackRow> {
    const { callBacks } = tablesOf(h.server.database.db);
    return (await h.server.database.db.select().from(callBacks).where(eq(callBacks.id, id)))[0]!;
  }

  it('a due call-back to a UK mobile in opening hours: rung from the business number, the person hears the opening, the row answered with its own agent call', async () => {
    at(OPEN);
    const to = h.ownerPhone!.number('answers');
    expect(to).toMatch(/^\+447\d{9}$/);
    const { cb, did, userId } = await dueCallBack(to);
    h.whisper.defaultTranscript = 'Hello?';
    const sweeper = h.server.services.callBacks;
    expect(await sweeper.sweep()).toEqual([{ id: cb.id, did: 'dialled' }]);

    const call = await h.ownerPhone!.nextCall(to, 60_000);
    expect(await shownTo(h.ownerPhone!, to)).toEqual({ name: BUSINESS, number: did });
    const spoke = await untilSpokenTo(call, speech('Hello?'));
    await hearsAgent(h, call, spoke - 200, callBackOpening(BUSINESS));
    expect((await row(cb.id)).state).toBe('calling');
    await call.hangUp();
    await sweeper.settled();

    const done = await row(cb.id);
    expect(done).toMatchObject({ state: 'answered', tries: 1, lastOutcome: 'answered', doneBy: 'agent', callBackCallId: expect.any(Number) });
    const { calls } = tablesOf(h.server.database.db);
    const [placed] = await h.server.database.db.select().from(calls).where(eq(calls.id, done.callBackCallId!));
    expect(placed).toMatchObject({ userId, fromNumber: to, toNumber: did, mode: 'agent', status: 'answered' });
    // Made final and announced as any call's, so the post-call job summarises it.
    expect(placed!.endedAt).not.toBeNull();
    expect(h.finished).toContain(placed!.id);
  }, 180_000);

  it('a due call-back to a number that texted STOP: nothing rings, the call-back is cancelled', async () => {
    at(OPEN);
    const to = h.ownerPhone!.number('answers');
    const { cb, did, userId } = await dueCallBack(to);
    // The caller texts STOP to the business's number, on the box's own inbound road.
    const inbox = startLocalInbox(h.server.services, { watch: false });
    try {
      dropText(h.server, `stop-${cb.id}.json`, { from: to, to: did, body: 'STOP' });
      expect(await inbox.scan()).toEqual({ [`stop-${cb.id}.json`]: 'caller' });
    } finally {
      await inbox.stop();
    }
    const { callerOptOuts } = tablesOf(h.server.database.db);
    expect(await h.server.database.db.select().from(callerOptOuts).where(eq(callerOptOuts.userId, userId))).toEqual([expect.objectContaining({ callerNumber: to, word: 'STOP' })]);

    const sweeper = h.server.services.callBacks;
    expect(await sweeper.sweep()).toEqual([{ id: cb.id, did: 'closed' }]);
    // Had it been dialled, this waits for that call to end (the phone answers, a machine by silence).
    await sweeper.settled();
    expect(h.ownerPhone!.wasCalled(to)).toBe(false);
    expect(await row(cb.id)).toMatchObject({ state: 'cancelled', doneBy: 'agent', tries: 0, callBackCallId: null });
  }, 180_000);

  it('a call-back due on a Saturday: nothing rings, it waits for Monday 09:00 with no try counted', async () => {
    at(SATURDAY);
    const to = h.ownerPhone!.number('answers');
    const { cb } = await dueCallBack(to);
    const sweeper = h.server.services.callBacks;
    expect(await sweeper.sweep()).toEqual([{ id: cb.id, did: 'postponed' }]);
    await sweeper.settled();
    expect(h.ownerPhone!.wasCalled(to)).toBe(false);
    const held = await row(cb.id);
    expect(held).toMatchObject({ state: 'waiting', tries: 0, lastTryAt: null });
    expect(held.dueAt.toISOString()).toBe(MONDAY_OPENING);
  }, 180_000);
});
