// Issue 56: the core's call-back sweep, PBX-free. A recording double stands in for the PBX's
// dialler (core/ports/call-back-dialler.ts); the clock is the test server's. Who is rung, when,
// and what follows each try: dialled once by two sweepers at once (two servers on one PostgreSQL
// under TEST_DATABASE=postgres, two sweepers on one SQLite file otherwise), held to the business's
// hours, never after STOP or a spam mark, the no-answer text and a second try 30 minutes later
// then none, a PBX with no slot free (no try counted), an answered call, and the owner's window.
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { noAnswerText } from '../../core/call-backs/texts.js';
import { CallBackSweep, STUCK_CALLING_MS } from '../../core/call-backs-dial/sweep.js';
import { claimDueCallBacks } from '../../core/call-backs-store/claim.js';
import { recordOwnerWindow } from '../../core/call-backs-dial/owner-window.js';
import { recordCallBackWish } from '../../core/call-backs-store/store.js';
import { defaultCallHandling } from '../../core/call-handling/defaults.js';
import { saveCallHandling } from '../../core/call-handling/store.js';
import { tablesOf, type CallBackRow } from '../../core/db/schema.js';
import type { CallBackDial, CallBackDialResult } from '../../core/ports/call-back-dialler.js';
import { markNumber } from '../../core/screening/marks.js';
import { activeCustomer } from '../helpers/accounts.js';
import { textsTo } from '../helpers/destinations.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { waitUntil } from '../helpers/wait.js';
import { insertCalls } from '../calls/seed.js';

/** The PBX's part, recorded: every dial asked for, answered from a script per call-back (else answered). */
const dials: CallBackDial[] = [];
const script = new Map<number, CallBackDialResult[]>();
const dialler = async (d: CallBackDial): Promise<CallBackDialResult> => {
  dials.push(d);
  return script.get(d.callBackId)?.shift() ?? { placed: true, outcome: 'answered', callId: null };
};
const dialsOf = (id: number) => dials.filter((d) => d.callBackId === id);

// The sweep's own timer never fires within a test: each test sweeps by hand.
const env = { CALL_BACK_SWEEP_MS: '3600000', CALL_BACK_NO_SLOT_WAIT_MS: '60000' };

let server: TestServer;
let owner: Awaited<ReturnType<typeof activeCustomer>>;
const DID = '+447700900050';
let nextCaller = 600;

beforeAll(async () => {
  server = await startTestServer({ env, background: { callBacks: true }, callBackDialler: dialler });
  owner = await activeCustomer(server, { businessName: 'Sweep Plumbing' });
  const { phoneNumbers } = tablesOf(server.database.db);
  await server.database.db.insert(phoneNumbers).values({ phoneNumber: DID, provider: 'static', providerSid: 'static-sweep', userId: owner.user.id, assignedAt: new Date() });
}, 120_000);
afterAll(() => server?.close());

// A test's leftovers never fall due in the next one's sweep.
afterEach(async () => {
  const { callBacks } = tablesOf(server.database.db);
  await server.database.db.update(callBacks).set({ state: 'cancelled' }).where(eq(callBacks.state, 'waiting'));
});

/** Sets the server's clock to `iso`. */
const at = (iso: string) => {
  server.clock.offsetMs = Date.parse(iso) - Date.now();
};
const now = () => server.services.now();

/** A voicemail's call-back, due now, from a fresh caller. */
async function dueCallBack(dueAt = now()): Promise<CallBackRow> {
  const caller = `+447700900${nextCaller++}`;
  const [call] = await insertCalls(server, [{ userId: owner.user.id, status: 'voicemail', fromNumber: caller, toNumber: DID, aiSummary: 'Leaking tap in the kitchen.' }]);
  return recordCallBackWish(server.database.db, { userId: owner.user.id, firstCallId: call!.id, callerNumber: caller, dueAt, source: 'voicemail' }, now());
}

async function row(id: number): Promise<CallBackRow> {
  const { callBacks } = tablesOf(server.database.db);
  return (await server.database.db.select().from(callBacks).where(eq(callBacks.id, id)))[0]!;
}

async function sweep(sweeper: CallBackSweep = server.services.callBacks) {
  const steps = await sweeper.sweep();
  await sweeper.settled();
  return steps;
}

async function ownerNotices(): Promise<string[]> {
  const { notifications } = tablesOf(server.database.db);
  const rows = await server.database.db.select().from(notifications).where(and(eq(notifications.userId, owner.user.id), eq(notifications.kind, 'call-back')));
  return rows.sort((a, b) => a.id - b.id).map((r) => r.body);
}

// Wednesday 9 December 2026, 10:00 London (GMT): open by the default hours (Mon–Fri 09:00–17:30).
const OPEN = '2026-12-09T10:00:00.000Z';

describe('the call-back sweep', () => {
  it('dials a due call-back once when two sweepers claim at the same moment', async () => {
    at(OPEN);
    const rows = await Promise.all([1, 2, 3, 4, 5, 6].map(() => dueCallBack()));
    // A second core: another server on the same PostgreSQL, or a second sweeper on the SQLite file.
    const other = server.config.database.kind === 'postgres'
      ? await startTestServer({ env: { ...env, DATABASE_URL: server.config.database.url }, background: { callBacks: true }, callBackDialler: dialler })
      : undefined;
    other && (other.clock.offsetMs = server.clock.offsetMs);
    const second = other?.services.callBacks ?? new CallBackSweep({
      db: server.database.db, now, log: server.services.log, allow: server.config.outbound.allow, noSlotWaitMs: 60_000,
      callFinished: [], callSettled: [], road: server.services.callerTexts.road, gateway: server.services.callerTexts.gateway,
    });
    if (!other) second.start(dialler, 3_600_000);
    try {
      // Each sweeper takes at most four at once, so two rounds take all six.
      for (let round = 0; round < 2; round++) await Promise.all([sweep(), sweep(second)]);
      for (const r of rows) {
        expect(dialsOf(r.id)).toHaveLength(1);
        expect((await row(r.id)).state).toBe('answered');
      }
      expect(dialsOf(rows[0]!.id)[0]).toEqual({
        callBackId: rows[0]!.id, userId: owner.user.id, to: rows[0]!.callerNumber, from: DID, businessName: 'Sweep Plumbing',
        firstCallSummary: 'Leaking tap in the kitchen.', firstCallId: rows[0]!.firstCallId,
      });
    } finally {
      if (other) await other.close();
      else await second.stop();
    }
  });

  it('holds a call-back due outside the business hours until they open, without dialling', async () => {
    // Saturday 12 December, 11:00: closed until Monday 09:00.
    at('2026-12-12T11:00:00.000Z');
    const cb = await dueCallBack();
    expect(await sweep()).toEqual([{ id: cb.id, did: 'postponed' }]);
    expect(dialsOf(cb.id)).toEqual([]);
    const held = await row(cb.id);
    expect(held.state).toBe('waiting');
    expect(held.tries).toBe(0);
    expect(held.dueAt.toISOString()).toBe('2026-12-14T09:00:00.000Z');
  });

  it('never dials a caller who texted STOP or whom the owner marked as spam', async () => {
    at(OPEN);
    const stopped = await dueCallBack();
    const spam = await dueCallBack();
    const { callerOptOuts } = tablesOf(server.database.db);
    await server.database.db.insert(callerOptOuts).values({ userId: owner.user.id, callerNumber: stopped.callerNumber, word: 'STOP', optedOutAt: now() });
    await markNumber(server.database.db, owner.user.id, spam.callerNumber, 'spam', now());
    await sweep();
    for (const cb of [stopped, spam]) {
      expect(dialsOf(cb.id)).toEqual([]);
      expect(await row(cb.id)).toMatchObject({ state: 'cancelled', doneBy: 'agent', tries: 0 });
    }
  });

  it('after no answer: the caller texted, the owner told, a second try 30 minutes later, then none', async () => {
    at(OPEN);
    const cb = await dueCallBack();
    script.set(cb.id, [{ placed: true, outcome: 'no-answer', callId: null }, { placed: true, outcome: 'busy', callId: null }]);
    await sweep();
    const first = await row(cb.id);
    expect(first).toMatchObject({ state: 'waiting', tries: 1, lastOutcome: 'no-answer' });
    expect(first.dueAt.getTime() - first.lastTryAt!.getTime()).toBe(30 * 60_000);
    const text = noAnswerText(DID);
    expect(text).toBe('We tried to ring you back; reply CALL for another try or call us on +44 770 090 0050.');
    await waitUntil(() => expect(textsTo(server, cb.callerNumber).map((t) => t.body)).toEqual([text]), 10_000);
    expect(await ownerNotices()).toContain(`We tried to ring ${cb.callerNumber} back for you: no answer. We texted them to reply CALL or ring you. We will try once more at 10:30.`);

    // A sweep before the 30 minutes are up dials nothing.
    at('2026-12-09T10:29:00.000Z');
    await sweep();
    expect(dialsOf(cb.id)).toHaveLength(1);

    server.clock.offsetMs = first.dueAt.getTime() - Date.now() + 1000;
    await sweep();
    expect(dialsOf(cb.id)).toHaveLength(2);
    expect(await row(cb.id)).toMatchObject({ state: 'no-answer', tries: 2, lastOutcome: 'busy', doneBy: 'agent' });
    await waitUntil(() => expect(textsTo(server, cb.callerNumber).map((t) => t.body)).toEqual([text, text]), 10_000);
    expect(await ownerNotices()).toContain(`We tried to ring ${cb.callerNumber} back for you: the line was busy. We texted them to reply CALL or ring you. That was the last try; they have your number if they want to call.`);

    // No third try, however long the box waits.
    at('2026-12-10T10:00:00.000Z');
    await sweep();
    expect(dialsOf(cb.id)).toHaveLength(2);
  });

  it("a call-back left 'calling' by a core that stopped mid-dial: released only after the bound, that dial counted, one more ring and no third", async () => {
    at(OPEN);
    const cb = await dueCallBack();
    // The other core claimed it, then died before the dial's end was recorded.
    expect((await claimDueCallBacks(server.database.db, now(), 10)).map((r) => r.id)).toEqual([cb.id]);
    server.clock.offsetMs += STUCK_CALLING_MS - 60_000;
    expect(await sweep()).toEqual([]);
    expect(dialsOf(cb.id)).toEqual([]);
    expect((await row(cb.id)).state).toBe('calling');

    server.clock.offsetMs += 120_000;
    script.set(cb.id, [{ placed: true, outcome: 'no-answer', callId: null }]);
    expect(await sweep()).toEqual([{ id: cb.id, did: 'dialled' }]);
    expect(dialsOf(cb.id)).toHaveLength(1);
    // The lost dial was the first try: this one was the second, so the call-back is over.
    expect(await row(cb.id)).toMatchObject({ state: 'no-answer', tries: 2, lastOutcome: 'no-answer', doneBy: 'agent' });
    server.clock.offsetMs += 3600_000;
    await sweep();
    expect(dialsOf(cb.id)).toHaveLength(1);
  });

  it('a PBX with no slot free: no try counted, the call-back waits and is tried again', async () => {
    at(OPEN);
    const cb = await dueCallBack();
    const [answered] = await insertCalls(server, [{ userId: owner.user.id, status: 'answered', fromNumber: DID, toNumber: cb.callerNumber }]);
    script.set(cb.id, [{ placed: false, why: 'no-slot' }, { placed: true, outcome: 'answered', callId: answered!.id }]);
    await sweep();
    const waiting = await row(cb.id);
    expect(waiting).toMatchObject({ state: 'waiting', tries: 0, lastTryAt: null });
    expect(waiting.dueAt.getTime() - now().getTime()).toBeGreaterThan(55_000);
    expect(waiting.dueAt.getTime() - now().getTime()).toBeLessThanOrEqual(60_000);

    server.clock.offsetMs += 61_000;
    await sweep();
    expect(dialsOf(cb.id)).toHaveLength(2);
    expect(await row(cb.id)).toMatchObject({ state: 'answered', tries: 1, lastOutcome: 'answered', callBackCallId: answered!.id, doneBy: 'agent' });
    expect(await ownerNotices()).toContain(`We rang ${cb.callerNumber} back for you and they answered. The call is in your call list. (call ${answered!.id})`);
  });

  it('a called party who says it is the wrong number: closed, no second try, the owner told', async () => {
    at(OPEN);
    const cb = await dueCallBack();
    script.set(cb.id, [{ placed: true, outcome: 'wrong-number', callId: null }]);
    await sweep();
    expect(await row(cb.id)).toMatchObject({ state: 'answered', tries: 1, lastOutcome: 'wrong-number', doneBy: 'agent' });
    expect(textsTo(server, cb.callerNumber)).toEqual([]);
    expect(await ownerNotices()).toContain(`We rang ${cb.callerNumber} back for you: they said it was the wrong number, so we will not ring them again.`);
    at('2026-12-09T11:00:00.000Z');
    await sweep();
    expect(dialsOf(cb.id)).toHaveLength(1);
  });

  it("the caps count both tries of a call-back, though a row keeps only its last try's time", async () => {
    // Friday 11 December, 11:00: five call-backs tried twice each, the last at 10:40, are ten dials
    // within the hour, the business's hourly cap (core/call-backs/caps.ts).
    at('2026-12-11T11:00:00.000Z');
    const { callBacks } = tablesOf(server.database.db);
    for (let i = 0; i < 5; i++) {
      const tried = await dueCallBack();
      await server.database.db.update(callBacks).set({ state: 'no-answer', tries: 2, lastTryAt: new Date('2026-12-11T10:40:00.000Z'), lastOutcome: 'no-answer', doneBy: 'agent' }).where(eq(callBacks.id, tried.id));
    }
    const cb = await dueCallBack();
    expect(await sweep()).toEqual([{ id: cb.id, did: 'postponed' }]);
    expect(dialsOf(cb.id)).toEqual([]);
    expect(await row(cb.id)).toMatchObject({ state: 'waiting', tries: 0, dueAt: new Date('2026-12-11T11:40:00.000Z') });
  });

  it("'agent-after': a missed call's call-back is recorded at its end + N minutes; with 'owner' none", async () => {
    at(OPEN);
    const db = server.database.db;
    await saveCallHandling(db, owner.user.id, { ...defaultCallHandling(), callBacksBy: 'agent-after', callBackAfterMinutes: 20 }, now());
    const endedAt = new Date('2026-12-09T09:55:00.000Z');
    const [missed] = await insertCalls(server, [{ userId: owner.user.id, status: 'missed', fromNumber: '+447700900590', toNumber: DID, createdAt: new Date('2026-12-09T09:54:30.000Z'), endedAt }]);
    for (const finished of server.services.hooks.callFinished) finished(missed!.id);
    const { callBacks } = tablesOf(db);
    const recorded = await waitUntil(async () => {
      const [r] = await db.select().from(callBacks).where(eq(callBacks.firstCallId, missed!.id));
      if (!r) throw new Error('no call-back recorded yet');
      return r;
    }, 10_000);
    expect(recorded).toMatchObject({ source: 'owner-window', state: 'waiting', callerNumber: '+447700900590', userId: owner.user.id });
    expect(recorded.dueAt.toISOString()).toBe('2026-12-09T10:15:00.000Z');

    // The owner rings them themselves: nothing is recorded for their next missed call.
    await saveCallHandling(db, owner.user.id, { ...defaultCallHandling(), callBacksBy: 'owner' }, now());
    const [theirs] = await insertCalls(server, [{ userId: owner.user.id, status: 'missed', fromNumber: '+447700900591', toNumber: DID, endedAt }]);
    await recordOwnerWindow(db, theirs!.id, now(), server.services.log);
    expect(await db.select().from(callBacks).where(eq(callBacks.firstCallId, theirs!.id))).toEqual([]);
  });
});
