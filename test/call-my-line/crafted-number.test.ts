// Issue 39, M2: a test call's credentials must ring only their owner's number, over the core's
// proxy only. A number crafted to break the dialplan's comparison (`+<B's DID>,")(`: a quote
// and brackets make the expression a parse error, the comma splits Stasis's arguments) used to
// fall through to Stasis as an ordinary call to owner B; and the credentials rang over UDP
// 5060 too, past the proxy. On the real Asterisk 20.17.0 with the project's dialplan.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { calls, notifications } from '../helpers/tables.js';
import { CALL_MY_LINE_ENDPOINT } from '../../pbx/call-my-line/lines.js';
import type { ApiClient } from '../helpers/client.js';
import { realPbxAvailability, startRealPbx, type RealPbx } from '../pbx-real/harness.js';
import { ownerWithLine, pressCallMyLine } from './owner-line.js';
import { directInvites } from './sipp-direct.js';
import { connect, SipSocket, type Credentials } from './sip-ws-client.js';

const real = realPbxAvailability();
vi.setConfig({ testTimeout: 120_000 });

describe.skipIf(!real.ok)('a crafted number from a test call’s credentials', () => {
  let h: RealPbx;
  let owner: { client: ApiClient; user: { id: number }; did: string };
  let other: { userId: number; did: string };
  beforeAll(async () => {
    h = await startRealPbx();
    owner = await ownerWithLine(h.server, '+447700900821');
    other = await h.business({ businessName: 'Owner B Ltd' });
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach((ctx) => {
    const from = h.asterisk.log.length;
    ctx.onTestFailed(() => console.log(`Asterisk:\n${h.asterisk.log.slice(from).slice(-6000)}`));
  });

  const credentials = (): Promise<Credentials> => pressCallMyLine(owner.client);
  // As a SIP URI's user part (escaped: + " and space). The probe's `+<B's DID>,")(`, and the
  // one that made the old comparison false: `+<B's DID>," = "x" & "` reads as
  // ("+<B>," = "x") & ("" != "<A's DID>"), which is 0, and its comma gave Stasis B's DID.
  const crafted = () => [`%2B${other.did.slice(1)},%22)(`, `%2B${other.did.slice(1)},%22%20=%20%22x%22%20&%20%22`];
  const refusedAtStasis = () => h.coreLog.filter((l) => l.msg === 'refused a test call at Stasis').length;

  async function nothingReachedOwnerB(): Promise<void> {
    expect(await h.rows(other.did)).toEqual([]);
    const texts = await h.server.database.db.select().from(notifications).where(eq(notifications.userId, other.userId));
    expect(texts).toEqual([]);
  }

  it('over the proxied WebSocket: refused with 403 before anything answers, no call for owner B', async () => {
    const c = await credentials();
    const s = await connect(h.server.url, c.wsPath, { origin: h.server.url, cookie: owner.client.cookie });
    if (!(s instanceof SipSocket)) throw new Error(`upgrade refused with ${s.refused}`);
    const [probe, falsified] = crafted();
    expect((await s.invite(c, `sip:${probe}@callkeeper.invalid`)).status).toBe(403);
    s.close();
    // One call per connection: fresh credentials for the next.
    const c2 = await credentials();
    const s2 = await connect(h.server.url, c2.wsPath, { origin: h.server.url, cookie: owner.client.cookie });
    if (!(s2 instanceof SipSocket)) throw new Error(`upgrade refused with ${s2.refused}`);
    const call = await s2.invite(c2, `sip:${falsified}@callkeeper.invalid`);
    if (call.status === 200) call.hangUp();
    expect(call.status).toBe(403);
    s2.close();
    await nothingReachedOwnerB();
    expect(await h.rows(owner.did)).toEqual([]);
  });

  it('straight to UDP 5060 with the same credentials: the crafted number and even the owner’s own are refused (WebSocket only)', async () => {
    const c = await credentials();
    const before = refusedAtStasis();
    const sipp = await directInvites(h.asterisk.sipPort, c, [...crafted(), `%2B${owner.did.slice(1)}`, owner.did]);
    expect(sipp.finals, sipp.messages.slice(-3000)).toEqual([403, 403, 403, 403]);
    expect(sipp.exitCode).toBe(0);
    await nothingReachedOwnerB();
    // No Stasis call at all: the dialplan refused before Stasis, so the core saw nothing.
    expect(await h.server.database.db.select().from(calls).where(eq(calls.toNumber, owner.did))).toEqual([]);
    expect(refusedAtStasis()).toBe(before);
  });

  it('the core refuses a test call to another owner’s number even when Asterisk lets it through (defence in depth)', async () => {
    const c = await credentials();
    const s = await connect(h.server.url, c.wsPath, { origin: h.server.url, cookie: owner.client.cookie });
    if (!(s instanceof SipSocket)) throw new Error(`upgrade refused with ${s.refused}`);
    // Behind the core's back, the endpoint is told B's number is its own: the dialplan now
    // passes B's number to Stasis as a test call. Only the core's own record says whose it is.
    // (Made again under its name: ARI cannot update a live endpoint in place.)
    const endpointUrl = `${h.asterisk.ari.url}/ari/asterisk/config/dynamic/res_pjsip/endpoint/${c.user}`;
    expect((await fetch(endpointUrl, { method: 'DELETE', headers: { authorization: h.asterisk.basicAuth() } })).status).toBe(204);
    const res = await fetch(endpointUrl, {
      method: 'PUT',
      headers: { authorization: h.asterisk.basicAuth(), 'content-type': 'application/json' },
      body: JSON.stringify({
        fields: Object.entries({ ...CALL_MY_LINE_ENDPOINT, auth: c.user, callerid: `"Test call" <${owner.did}>`, set_var: `TEST_CALL_DID=${other.did}` }).map(([attribute, value]) => ({ attribute, value })),
      }),
    });
    expect(res.status, await res.text()).toBe(200);
    const call = await s.invite(c, `sip:${other.did}@callkeeper.invalid`);
    if (call.status === 200) call.hangUp();
    expect(call.status).toBe(403);
    s.close();
    expect(h.coreLog.filter((l) => l.msg === 'refused a test call at Stasis')).toMatchObject([{ reason: 'to a number that is not the endpoint owner’s' }]);
    await nothingReachedOwnerB();
  });
});
