// Missed-call text-back on a real Asterisk 20.17.0 called by SIPp: a caller who hangs up at the
// greeting gets one text in the outbox (no Twilio here), from the number they rang; withheld,
// landline and blocked callers get none, nor does the business's own phone; ten calls from one number in a minute get one text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveCallHandling } from '../../core/call-handling/store.js';
import { defaultCallHandling } from '../../core/call-handling/defaults.js';
import { saveTextBack } from '../../core/caller-texts/store.js';
import { waitUntil } from '../helpers/wait.js';
import { giveNumber, outboxTo, textBackSettled, thread } from '../caller-texts/helpers.js';
import { realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';
import type { SipCall } from './sipp.js';

const real = realPbxAvailability();

describe.skipIf(!real.ok)('missed-call text-back on a real Asterisk, called over SIP', () => {
  let h: RealPbx;
  beforeAll(async () => {
    h = await startRealPbx({ services: (s) => s.callerTexts.start() });
  });
  afterAll(async () => {
    await h?.server.services.callerTexts.stop();
    await h?.close();
  });

  async function textBackBusiness(blockList: string[] = []) {
    const b = await h.business({ businessName: 'Hale Plumbing' });
    await saveTextBack(h.server.database.db, b.userId, { enabled: true, wording: null, windowHours: 24, hours: 'always' }, new Date());
    if (blockList.length) await saveCallHandling(h.server.database.db, b.userId, { ...defaultCallHandling(), holidayNations: [], blockList }, new Date());
    return b;
  }

  /** Waits for the greeting's sound, then hangs up: a caller who leaves no message. */
  async function hangUpAtGreeting(call: SipCall): Promise<void> {
    await waitUntil(() => expect(call.media.soundMs()).toBeGreaterThan(600), 30_000);
    await call.hangUp();
  }

  /** Every call to `did` has ended and been announced finished; their ids. */
  const finishedCalls = (did: string, n: number) =>
    waitUntil(async () => {
      const rows = await h.rows(did);
      if (rows.length !== n || rows.some((r) => !r.endedAt || !h.finished.includes(r.id))) throw new Error(`${rows.length} of ${n} calls to ${did} finished`);
      return rows;
    }, 60_000, 100);

  it('a caller who hangs up at the greeting gets one text in the outbox, from the number they rang', async () => {
    const { did } = await textBackBusiness();
    const call = await h.call(did, '07700900555');
    await hangUpAtGreeting(call);
    expect((await call.done).exitCode).toBe(0);
    const row = await h.finishedRow(did);
    expect(row).toMatchObject({ status: 'missed', fromNumber: '+447700900555' });
    const texts = await waitUntil(() => {
      const t = outboxTo(h.server, '+447700900555');
      if (t.length === 0) throw new Error('no text-back yet');
      return t;
    }, 30_000, 50);
    expect(texts).toEqual([expect.objectContaining({ from: did, body: expect.stringMatching(/^Sorry we missed your call to Hale Plumbing\./) })]);
    await textBackSettled(h.server, row.id);
    expect(outboxTo(h.server, '+447700900555')).toHaveLength(1);
  }, 120_000);

  it('a withheld, a landline (01/02) and a blocked caller get none; a mobile caller to the same business does', async () => {
    const { did } = await textBackBusiness(['+447700900655']);
    const callers = ['anonymous', '01632960555', '02079460555', '07700900655', '07700900855'];
    for (const from of callers) {
      const call = await h.call(did, from);
      // The blocked caller is refused and hung up on by Asterisk; the others hang up at the greeting.
      if (from !== '07700900655') await hangUpAtGreeting(call);
      expect((await call.done).exitCode).toBe(0);
    }
    const rows = await finishedCalls(did, callers.length);
    expect(rows.find((r) => r.fromNumber === '+447700900655')).toMatchObject({ callerTag: 'blocked' });
    for (const r of rows) await textBackSettled(h.server, r.id);
    for (const n of ['anonymous', '+441632960555', '+442079460555', '+447700900655']) expect(outboxTo(h.server, n), n).toEqual([]);
    expect(outboxTo(h.server, '+447700900855')).toHaveLength(1);
  }, 240_000);

  it('the owner ringing from their own confirmed mobile, their put-through phone or another of their numbers gets no text; a caller does', async () => {
    const { did, userId } = await h.business({ businessName: 'Hale Plumbing', notificationNumber: '+447700900951', forwardToNumber: '07700 900852', phoneNumber: '+447700900753', phoneConfirmedAt: new Date() });
    await saveTextBack(h.server.database.db, userId, { enabled: true, wording: null, windowHours: 24, hours: 'always' }, new Date());
    await giveNumber(h.server, userId, '+447700900654');
    // Each in its own block of 100 (one text-back per block per window), the caller first.
    const own = ['07700900951', '07700900852', '07700900753', '07700900654'];
    const callers = ['07700900155', ...own];
    for (const from of callers) {
      const call = await h.call(did, from);
      await hangUpAtGreeting(call);
      expect((await call.done).exitCode).toBe(0);
    }
    const rows = await finishedCalls(did, callers.length);
    expect(rows.every((r) => r.status === 'missed')).toBe(true);
    for (const r of rows) await textBackSettled(h.server, r.id);
    expect(outboxTo(h.server, '+447700900155')).toEqual([expect.objectContaining({ from: did, body: expect.stringMatching(/^Sorry we missed your call to Hale Plumbing\./) })]);
    for (const n of own) expect(await thread(h.server, userId, `+44${n.slice(1)}`), n).toEqual([]);
  }, 240_000);

  it('ten calls from one number within a minute: one text', async () => {
    const { did } = await textBackBusiness();
    const batch = await h.calls(Array.from({ length: 10 }, () => ({ did, from: '+447700900777' })));
    await Promise.all(batch.calls.map(hangUpAtGreeting));
    expect((await batch.done).exitCode).toBe(0);
    const rows = await finishedCalls(did, 10);
    for (const r of rows) await textBackSettled(h.server, r.id);
    expect(outboxTo(h.server, '+447700900777')).toHaveLength(1);
  }, 240_000);
});
