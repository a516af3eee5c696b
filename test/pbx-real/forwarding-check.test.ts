// "Check my forwarding" on a real Asterisk 20.17.0: the appliance calls the owner's business
// line over the outbound trunk (a SIPp user agent server plays that line), and the test, playing
// the carrier, forwards the call back to the owner's appliance number with a Diversion header,
// as a UK network does: at once (all calls), after ringing (unanswered), after a busy answer
// (busy), or never. The console reads the result from the API; nothing is texted or logged.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { calls, forwardingChecks, phoneNumbers } from '../helpers/tables.js';
import type { ApiForwardingCheck } from '../../contract/schemas/forwarding-check.js';
import type { ApiClient } from '../helpers/client.js';
import { activeCustomer } from '../helpers/accounts.js';
import { waitUntil } from '../helpers/wait.js';
import type { OwnerBehaviour } from './owner-phone.js';
import { realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';

const real = realPbxAvailability();

describe.skipIf(!real.ok)('checking that the owner’s line forwards to the appliance, on a real Asterisk', () => {
  let h: RealPbx;
  let didSeq = 0;
  beforeAll(async () => {
    // The window is shortened so "never forwards" ends soon; the tests wait on the result, not on
    // time. It still bounds how long a forwarded call may take to come back, so it holds under
    // load: at 6 s one clean-clone run filed the busy case "not reaching" (its SIPp call came late).
    h = await startRealPbx({ ownerPhone: true, pipeline: true, env: { FORWARDING_CHECK_SECONDS: '30' } });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  /** An active owner whose business line (on their account) behaves as `behaviour`, with an appliance number. */
  async function owner(behaviour: OwnerBehaviour) {
    const line = h.ownerPhone!.number(behaviour);
    const { client, user } = await activeCustomer(h.server, { businessPhone: line });
    const did = `+44770080${String(process.pid % 1000).padStart(3, '0')}${++didSeq}`;
    await h.server.database.db.insert(phoneNumbers).values({ phoneNumber: did, provider: 'static', providerSid: did, userId: user.id, assignedAt: new Date() });
    return { client, userId: user.id, line, did };
  }

  /** What the console shows once the check is no longer calling. */
  const result = (client: ApiClient, id: number) =>
    waitUntil(async () => {
      const res = await client.get<ApiForwardingCheck>(`/api/forwarding-check/${id}`);
      expect(res.status).toBe(200);
      if (res.body.state === 'calling') throw new Error('the check is still calling');
      return res.body;
    }, 60_000, 100);

  const start = async (client: ApiClient) => {
    const res = await client.post<{ id: number }>('/api/forwarding-check');
    expect(res.status, res.text).toBe(200);
    return res.body.id;
  };

  /** Nothing of the check is a call: no row (so no analytics, usage or text), nothing in the SMS outbox. */
  const leftNoTrace = async (did: string) => {
    expect(await h.server.database.db.select().from(calls).where(eq(calls.toNumber, did))).toEqual([]);
    const outbox = path.join(h.server.dataDir, 'outbox', 'sms');
    // The one text before the check is the code the owner's approval sent to their sign-up phone.
    expect((fs.existsSync(outbox) ? fs.readdirSync(outbox) : []).filter((f) => !f.startsWith('confirm-'))).toEqual([]);
    // Both legs are gone from Asterisk: the carrier's call was hung up, the call to the line ended.
    await waitUntil(async () => expect(await h.asterisk.ariGet<unknown[]>('/channels')).toEqual([]), 15_000);
  };

  it.each([
    ['forwards all calls at once', 'unconditional', 'all-calls'],
    ['forwards after ringing unanswered', 'no-answer', 'unanswered'],
  ] as const)('the line %s: "Forwarding works" with that condition', async (_what, reason, condition) => {
    const o = await owner('rings');
    const id = await start(o.client);
    // The check's call reaches the owner's line, showing the appliance number…
    const ringing = await h.ownerPhone!.nextCall(o.line);
    expect(ringing.dialled).toBe(o.line);
    // …and the network sends it on to the appliance number, as forwarding does.
    const back = await h.calls([{ did: o.did, from: o.did, diversion: { from: o.line, reason } }]);
    expect(await result(o.client, id)).toEqual({ id, state: 'works', condition });
    // The appliance answered the forwarded call and hung up: SIPp saw 200 then BYE.
    const done = await back.done;
    expect(done.exitCode, done.errors).toBe(0);
    expect(done.signalling[0]!.final).toBe(200);
    expect((await h.server.database.db.select().from(forwardingChecks).where(eq(forwardingChecks.id, id)))[0]).toMatchObject({ divertedFrom: o.line });
    await leftNoTrace(o.did);
  }, 120_000);

  it('the line is busy and forwards on busy: "Forwarding works" (busy), though the call to the line already ended', async () => {
    const o = await owner('busy');
    const id = await start(o.client);
    await h.ownerPhone!.nextCall(o.line);
    const back = await h.calls([{ did: o.did, from: o.did, diversion: { from: o.line, reason: 'user-busy' } }]);
    expect(await result(o.client, id)).toEqual({ id, state: 'works', condition: 'busy' });
    expect((await back.done).exitCode).toBe(0);
    await leftNoTrace(o.did);
  }, 120_000);

  it('the line never forwards: "Forwarding is not reaching us" once the window has passed, and the line stops ringing', async () => {
    const o = await owner('rings');
    const id = await start(o.client);
    await h.ownerPhone!.nextCall(o.line);
    expect(await result(o.client, id)).toEqual({ id, state: 'not-reaching' });
    await leftNoTrace(o.did);
    expect(h.ownerPhone!.errors()).toBe('');
  }, 120_000);

  it('a call from the appliance number to itself with no check waiting is an ordinary call', async () => {
    const o = await owner('rings');
    const call = await h.call(o.did, o.did);
    const row = await waitUntil(async () => {
      const [r] = await h.server.database.db.select().from(calls).where(eq(calls.toNumber, o.did));
      if (!r) throw new Error('no call row yet');
      return r;
    }, 30_000);
    expect(row.fromNumber).toBe(o.did);
    await call.hangUp();
    await call.done;
  }, 120_000);
});
