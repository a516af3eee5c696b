// Issue 56: the call_backs table's store, on SQLite and (TEST_DATABASE=postgres) PostgreSQL: a
// wish recorded once per call, due ones claimed by one dialler across two cores, a try's outcome,
// and the owner's "called back" closing the agent's call-back.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimDueCallBacks, postponeCallBack, recordCallBackTry } from '../../core/call-backs-store/claim.js';
import { listCallBacks, recordCallBackWish } from '../../core/call-backs-store/store.js';
import type { DatabaseHandle, Db } from '../../core/db/client.js';
import { openAppDatabase } from '../../core/db/open.js';
import { tablesOf } from '../../core/db/schema.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { insertCalls, type CallSeed } from '../calls/seed.js';
import { runOwnerCommand } from '../../core/followup/run-command.js';

let server: TestServer;
let db: Db;
let owner: Awaited<ReturnType<typeof activeCustomer>>;
const quiet = { info: () => {}, warn: () => {} };
const T0 = new Date('2026-12-03T10:00:00Z');
const min = (n: number) => new Date(T0.getTime() + n * 60_000);

beforeAll(async () => {
  server = await startTestServer();
  db = server.database.db;
  owner = await activeCustomer(server, { businessName: 'Store Ltd' });
});
afterAll(() => server.close());

async function callFrom(number: string, over: Partial<CallSeed> = {}) {
  const [call] = await insertCalls(server, [{ status: 'voicemail', fromNumber: number, aiSummary: 'Boiler leaking in the kitchen.\nWants a visit today.', ...over, userId: owner.user.id }]);
  return call!;
}

const rowsOf = async (firstCallId: number) => {
  const { callBacks } = tablesOf(db);
  return db.select().from(callBacks).where(eq(callBacks.firstCallId, firstCallId));
};

describe('recording a wish', () => {
  it('keeps one call-back per first call: a second wish moves its time', async () => {
    const call = await callFrom('+447700900401');
    const first = await recordCallBackWish(db, { userId: owner.user.id, firstCallId: call.id, callerNumber: call.fromNumber, dueAt: min(60), source: 'agent' }, T0);
    const second = await recordCallBackWish(db, { userId: owner.user.id, firstCallId: call.id, callerNumber: call.fromNumber, dueAt: min(90), source: 'voicemail' }, min(1));
    expect(second.id).toBe(first.id);
    const rows = await rowsOf(call.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: 'waiting', dueAt: min(90), source: 'agent', tries: 0 });
  });

  it('leaves a call-back that is already closed as it is', async () => {
    const call = await callFrom('+447700900402');
    const cb = await recordCallBackWish(db, { userId: owner.user.id, firstCallId: call.id, callerNumber: call.fromNumber, dueAt: min(5), source: 'agent' }, T0);
    const { callBacks } = tablesOf(db);
    await db.update(callBacks).set({ state: 'cancelled', doneBy: 'owner-cancelled' }).where(eq(callBacks.id, cb.id));
    const again = await recordCallBackWish(db, { userId: owner.user.id, firstCallId: call.id, callerNumber: call.fromNumber, dueAt: min(50), source: 'agent' }, min(1));
    expect(again).toMatchObject({ id: cb.id, state: 'cancelled', dueAt: min(5) });
  });

  it('a CALL reply moves the number\'s waiting call-back rather than adding one; with none it adds one without a first call', async () => {
    const { callerTexts } = tablesOf(db);
    const [t1, t2] = await db
      .insert(callerTexts)
      .values([1, 2].map((i) => ({ userId: owner.user.id, callerNumber: '+447700900403', kind: 'caller' as const, status: 'received' as const, body: 'CALL', key: `in:cb-${i}`, updatedAt: T0 })))
      .returning();
    const a = await recordCallBackWish(db, { userId: owner.user.id, textId: t1!.id, callerNumber: '+447700900403', dueAt: min(15), source: 'text-reply' }, T0);
    const b = await recordCallBackWish(db, { userId: owner.user.id, textId: t2!.id, callerNumber: '+447700900403', dueAt: min(30), source: 'text-reply' }, min(2));
    expect(b.id).toBe(a.id);
    expect(b).toMatchObject({ firstCallId: null, textId: t1!.id, dueAt: min(30), state: 'waiting' });
    const listed = (await listCallBacks(db, { userId: owner.user.id })).filter((c) => c.callerNumber === '+447700900403');
    expect(listed).toEqual([expect.objectContaining({ id: a.id, summary: 'Replied CALL to your text', firstCallId: null })]);
  });
});

describe('the tracker list', () => {
  it("shows the owner's call-backs newest first with the first call's summary line, and nobody else's", async () => {
    const other = await activeCustomer(server, { businessName: 'Other Ltd' });
    const older = await callFrom('+447700900411');
    const newer = await callFrom('+447700900412', { status: 'missed', aiSummary: null });
    const [theirs] = await insertCalls(server, [{ userId: other.user.id, status: 'voicemail', fromNumber: '+447700900413' }]);
    const a = await recordCallBackWish(db, { userId: owner.user.id, firstCallId: older.id, callerNumber: older.fromNumber, dueAt: min(10), source: 'voicemail' }, min(1));
    const b = await recordCallBackWish(db, { userId: owner.user.id, firstCallId: newer.id, callerNumber: newer.fromNumber, dueAt: min(10), source: 'owner-window' }, min(2));
    await recordCallBackWish(db, { userId: other.user.id, firstCallId: theirs!.id, callerNumber: theirs!.fromNumber, dueAt: min(10), source: 'agent' }, min(3));
    const list = await listCallBacks(db, { userId: owner.user.id });
    const ids = list.map((c) => c.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
    expect(list.every((c) => c.callerNumber !== '+447700900413')).toBe(true);
    expect(list.find((c) => c.id === a.id)).toMatchObject({ summary: 'Boiler leaking in the kitchen.', state: 'waiting', tries: 0, lastOutcome: null, callBackCallId: null, firstCallId: older.id });
    expect(list.find((c) => c.id === b.id)!.summary).toBe('Missed call');
  });
});

describe('claiming due call-backs', () => {
  it('gives each due call-back to one of two cores claiming at the same moment, never a waiting one not yet due', async () => {
    // The other core: its own connection (SQLite) or its own pool (PostgreSQL) on the same database.
    const second: DatabaseHandle = await openAppDatabase(server.config.database, quiet);
    try {
      const { callBacks } = tablesOf(db);
      // Earlier tests' rows are not due in this one: only these are.
      await db.update(callBacks).set({ state: 'done', doneBy: 'owner' }).where(eq(callBacks.state, 'waiting'));
      const due = [];
      for (let i = 0; i < 12; i++) {
        const call = await callFrom(`+4477009005${String(i).padStart(2, '0')}`);
        due.push((await recordCallBackWish(db, { userId: owner.user.id, firstCallId: call.id, callerNumber: call.fromNumber, dueAt: min(i), source: 'agent' }, T0)).id);
      }
      const later = await callFrom('+447700900599');
      const notYet = await recordCallBackWish(db, { userId: owner.user.id, firstCallId: later.id, callerNumber: later.fromNumber, dueAt: min(120), source: 'agent' }, T0);

      const claimers = [db, second.db, db, second.db];
      const claimed: number[] = [];
      // Every claimer claims until none is left; together they must take each due row exactly once.
      await Promise.all(claimers.map(async (d) => {
        for (;;) {
          const got = await claimDueCallBacks(d, min(60), 2);
          if (got.length === 0) return;
          claimed.push(...got.map((r) => r.id));
          expect(got.every((r) => r.state === 'calling')).toBe(true);
        }
      }));
      expect([...claimed].sort((x, y) => x - y)).toEqual([...due].sort((x, y) => x - y));
      const rows = await db.select().from(callBacks).where(eq(callBacks.id, notYet.id));
      expect(rows[0]!.state).toBe('waiting');
    } finally {
      await second.close();
    }
  });

  it('a try without answer waits for the next; the last closes it as no answer by the agent; a postponed one counts no try', async () => {
    const call = await callFrom('+447700900601');
    const cb = await recordCallBackWish(db, { userId: owner.user.id, firstCallId: call.id, callerNumber: call.fromNumber, dueAt: min(0), source: 'voicemail' }, T0);
    const { callBacks } = tablesOf(db);
    const only = async (at: Date) => (await claimDueCallBacks(db, at, 50)).filter((r) => r.id === cb.id);

    expect(await only(min(1))).toHaveLength(1);
    expect(await postponeCallBack(db, cb.id, min(30), min(1))).toBe(true);
    expect((await db.select().from(callBacks).where(eq(callBacks.id, cb.id)))[0]).toMatchObject({ state: 'waiting', dueAt: min(30), tries: 0 });

    expect(await only(min(30))).toHaveLength(1);
    const first = await recordCallBackTry(db, cb.id, { outcome: 'busy', at: min(30), retryAt: min(60) }, min(31));
    expect(first).toMatchObject({ state: 'waiting', tries: 1, lastOutcome: 'busy', lastTryAt: min(30), dueAt: min(60), doneBy: null });
    // A second outcome for a try not in progress changes nothing.
    expect(await recordCallBackTry(db, cb.id, { outcome: 'answered', at: min(31), retryAt: null }, min(31))).toBeUndefined();

    expect(await only(min(60))).toHaveLength(1);
    const last = await recordCallBackTry(db, cb.id, { outcome: 'no-answer', at: min(60), retryAt: null }, min(61));
    expect(last).toMatchObject({ state: 'no-answer', tries: 2, lastOutcome: 'no-answer', doneBy: 'agent' });
  });

  it('an answered try keeps the call-back call and closes it as answered; "wrong number" too, with no further try', async () => {
    const call = await callFrom('+447700900602');
    const outbound = await callFrom('+447700900602', { status: 'answered', mode: 'agent' });
    const cb = await recordCallBackWish(db, { userId: owner.user.id, firstCallId: call.id, callerNumber: call.fromNumber, dueAt: min(0), source: 'agent' }, T0);
    expect((await claimDueCallBacks(db, min(1), 50)).map((r) => r.id)).toContain(cb.id);
    expect(await recordCallBackTry(db, cb.id, { outcome: 'answered', at: min(1), callId: outbound.id, retryAt: null }, min(3))).toMatchObject({ state: 'answered', callBackCallId: outbound.id, doneBy: 'agent', tries: 1 });

    const call2 = await callFrom('+447700900603');
    const cb2 = await recordCallBackWish(db, { userId: owner.user.id, firstCallId: call2.id, callerNumber: call2.fromNumber, dueAt: min(0), source: 'agent' }, T0);
    expect((await claimDueCallBacks(db, min(1), 50)).map((r) => r.id)).toContain(cb2.id);
    expect(await recordCallBackTry(db, cb2.id, { outcome: 'wrong-number', at: min(1), retryAt: null }, min(2))).toMatchObject({ state: 'answered', lastOutcome: 'wrong-number', doneBy: 'agent' });
  });
});

describe("the owner's own call back", () => {
  it('Mark called back closes the waiting call-back as done by the owner', async () => {
    const call = await callFrom('+447700900701');
    const cb = await recordCallBackWish(db, { userId: owner.user.id, firstCallId: call.id, callerNumber: call.fromNumber, dueAt: min(15), source: 'owner-window' }, T0);
    const res = await owner.client.patch(`/api/call-logs/${call.id}/called-back`, { calledBack: true });
    expect(res.status).toBe(200);
    expect((await rowsOf(call.id))[0]).toMatchObject({ id: cb.id, state: 'done', doneBy: 'owner' });
    // Nothing left for the dialler.
    expect((await claimDueCallBacks(db, min(60), 50)).map((r) => r.id)).not.toContain(cb.id);
  });

  it('DONE by text does the same; a call-back being dialled then closes as the owner\'s instead of trying again', async () => {
    const { users } = tablesOf(db);
    const me = (await db.select().from(users).where(eq(users.id, owner.user.id)))[0]!;
    const call = await callFrom('+447700900702');
    const cb = await recordCallBackWish(db, { userId: owner.user.id, firstCallId: call.id, callerNumber: call.fromNumber, dueAt: min(0), source: 'agent' }, T0);
    expect((await claimDueCallBacks(db, min(1), 50)).map((r) => r.id)).toContain(cb.id);
    const done = await runOwnerCommand(db, me, { kind: 'done', ref: call.id }, min(2));
    expect(done.outcome).toBe('marked called back');
    expect(await recordCallBackTry(db, cb.id, { outcome: 'no-answer', at: min(1), retryAt: min(31) }, min(3))).toMatchObject({ state: 'done', doneBy: 'owner', tries: 1 });
  });
});
