// What a person's phone is shown when the box calls it (issue 58, "presenting the caller's
// number"; OUTBOUND_PRESENT_CALLER, pbx/flows/transfer/leg-caller-id.ts), on a real Asterisk
// 20.17.0: the INVITE each staff phone (the SIPp owner phone, the trunk's far end) receives,
// read from SIPp's message log, for ring the team first with two phones, a put-through (the
// voicemail menu's "press 2 for Tom" and the owner's own "ring me first") and a withheld caller,
// with each setting. The display name is the business's whatever the setting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCallHandling, saveCallHandling } from '../../core/call-handling/index.js';
import { waitUntil } from '../helpers/wait.js';
import { CALLER, realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';
import { placeCall } from './sipp.js';
import { teamBusiness } from './staff-phones.js';

const real = realPbxAvailability();

/** From's display name and number (the user part of its URI), and the two headers the caller setting adds. */
async function shown(h: RealPbx, dialled: string) {
  const headers = await h.ownerPhone!.inviteHeaders(dialled);
  const from = headers.get('from') ?? [];
  expect(from).toHaveLength(1);
  const m = /^(?:"([^"]*)"\s*)?<sip:([^@>]+)@/.exec(from[0]!);
  return { name: m?.[1], number: m?.[2], pai: headers.get('p-asserted-identity') ?? [], diversion: headers.get('diversion') ?? [] };
}

/** Rings the team first (both phones ring until told), reads what each was shown, then the caller hangs up. */
async function ringTeamShows(h: RealPbx, from = CALLER, privateNumber?: string) {
  const { did, staff } = await teamBusiness(h, { ringFirst: 'all', ringSeconds: 60, staff: [{ name: 'Sarah', phone: 'rings' }, { name: 'Tom', phone: 'rings' }] });
  const call = privateNumber ? await placeCall(h.asterisk.sipPort, { did, from, privateNumber }) : await h.call(did, from);
  const seen = [];
  for (const s of staff) {
    await h.ownerPhone!.nextCall(s.phone);
    seen.push(await shown(h, s.phone));
  }
  await call.hangUp();
  await call.done;
  // Said with what the phone saw, so a red run under load names whose CANCEL never came and why.
  for (const s of staff) {
    await waitUntil(() => expect(h.ownerPhone!.wasCancelled(s.phone), `no CANCEL reached ${s.phone}; the phone's errors: ${h.ownerPhone!.errors() || 'none'}`).toBe(true), 60_000, 50);
  }
  return { did, seen };
}

/** The voicemail menu's "press 2 for Tom": Tom's phone rings with the warm transfer; read, then the caller hangs up. */
async function pressForTomShows(h: RealPbx) {
  const { did, staff } = await teamBusiness(h, { staff: [{ name: 'Sarah', phone: 'rings' }, { name: 'Tom', phone: 'rings' }] });
  const call = await h.call(did);
  await waitUntil(() => expect(call.media.soundMs()).toBeGreaterThan(500), 30_000, 20);
  await call.media.digits('2');
  await h.ownerPhone!.nextCall(staff[1]!.phone);
  const seen = await shown(h, staff[1]!.phone);
  await call.hangUp();
  await call.done;
  await waitUntil(() => expect(h.ownerPhone!.wasCancelled(staff[1]!.phone)).toBe(true), 30_000, 50);
  return { did, seen };
}

/** The owner's own "ring me first" to their transfer number (a put-through to the owner). */
async function ownerRingFirstShows(h: RealPbx) {
  const to = h.ownerPhone!.number('rings');
  const { did, userId } = await h.business({ businessName: 'Hale Plumbing' });
  await saveCallHandling(h.server.database.db, userId, { ...defaultCallHandling(), holidayNations: [], transferNumber: to, openRingFirst: true }, new Date());
  const call = await h.call(did);
  await h.ownerPhone!.nextCall(to);
  const seen = await shown(h, to);
  await call.hangUp();
  await call.done;
  await waitUntil(() => expect(h.ownerPhone!.wasCancelled(to)).toBe(true), 30_000, 50);
  return { did, seen };
}

describe.skipIf(!real.ok)('OUTBOUND_PRESENT_CALLER=caller: staff phones see the caller’s number, on a real Asterisk', () => {
  let h: RealPbx;
  beforeAll(async () => {
    h = await startRealPbx({ ownerPhone: true, env: { OUTBOUND_PRESENT_CALLER: 'caller' } });
  });
  afterAll(async () => {
    await h?.close();
  });

  const callersNumber = (did: string) => ({ name: 'Hale Plumbing', number: CALLER, pai: [`<tel:${did}>`], diversion: [`<tel:${did}>;reason=unconditional`] });

  it('ring the team first: both phones are shown the caller’s number under the business’s name, the appliance number as P-Asserted-Identity and Diversion', async () => {
    const { did, seen } = await ringTeamShows(h);
    expect(seen).toEqual([callersNumber(did), callersNumber(did)]);
  }, 120_000);

  it('a put-through (the voicemail menu’s press 2 for Tom, the owner’s ring me first) shows the caller’s number too', async () => {
    const tom = await pressForTomShows(h);
    expect(tom.seen).toEqual(callersNumber(tom.did));
    const owner = await ownerRingFirstShows(h);
    expect(owner.seen).toEqual(callersNumber(owner.did));
  }, 120_000);

  it('a withheld caller: the phones are shown the appliance number, and nothing of the caller', async () => {
    const { did, seen } = await ringTeamShows(h, 'anonymous');
    const appliance = { name: 'Hale Plumbing', number: did, pai: [], diversion: [] };
    expect(seen).toEqual([appliance, appliance]);
  }, 120_000);

  it('a caller whose carrier asserts their number but marks it private (Privacy: id): the number Asterisk holds is still not shown', async () => {
    const { did, seen } = await ringTeamShows(h, 'anonymous', '+447700900777');
    const appliance = { name: 'Hale Plumbing', number: did, pai: [], diversion: [] };
    expect(seen).toEqual([appliance, appliance]);
  }, 120_000);
});

describe.skipIf(!real.ok)('OUTBOUND_PRESENT_CALLER unset (called): staff phones see the appliance number, on a real Asterisk', () => {
  let h: RealPbx;
  beforeAll(async () => {
    h = await startRealPbx({ ownerPhone: true });
  });
  afterAll(async () => {
    await h?.close();
  });

  const appliance = (did: string) => ({ name: 'Hale Plumbing', number: did, pai: [], diversion: [] });

  it('ring the team first: both phones are shown the appliance number called, under the business’s name', async () => {
    const { did, seen } = await ringTeamShows(h);
    expect(seen).toEqual([appliance(did), appliance(did)]);
  }, 120_000);

  it('a put-through (press 2 for Tom, the owner’s ring me first) shows the appliance number under the business’s name', async () => {
    const tom = await pressForTomShows(h);
    expect(tom.seen).toEqual(appliance(tom.did));
    const owner = await ownerRingFirstShows(h);
    expect(owner.seen).toEqual(appliance(owner.did));
  }, 120_000);
});
