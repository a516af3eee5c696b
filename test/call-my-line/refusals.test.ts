// "Call my line" (issue 28): who may open the SIP WebSocket and what its endpoint may ring,
// on the real Asterisk 20.17.0 with the project's configuration, through the core's proxy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeCustomer } from '../helpers/accounts.js';
import type { ApiClient } from '../helpers/client.js';
import { waitUntil } from '../helpers/wait.js';
import { realPbxAvailability, startRealPbx, type RealPbx } from '../pbx-real/harness.js';
import { ownerWithLine, pressCallMyLine } from './owner-line.js';
import { connect, SipSocket, type Credentials } from './sip-ws-client.js';

const real = realPbxAvailability();

describe.skipIf(!real.ok)('test calls from the console: the proxy and the per-call endpoint', () => {
  let h: RealPbx;
  let owner: { client: ApiClient; user: { id: number }; did: string };
  let origin: string;
  beforeAll(async () => {
    h = await startRealPbx();
    origin = h.server.url;
    owner = await ownerWithLine(h.server, '+447700900801');
  });
  afterAll(async () => {
    await h?.close();
  });

  const credentials = (): Promise<Credentials> => pressCallMyLine(owner.client);
  const open = async (c: Credentials): Promise<SipSocket> => {
    const s = await connect(h.server.url, c.wsPath, { origin, cookie: owner.client.cookie });
    if (!(s instanceof SipSocket)) throw new Error(`upgrade refused with ${s.refused}`);
    return s;
  };

  it('rings the owner’s own number into the Stasis flow, marked a test call', async () => {
    const c = await credentials();
    expect(c.sipUri).toBe(`sip:${owner.did}@callkeeper.invalid`);
    const sip = await open(c);
    const call = await sip.invite(c, c.sipUri);
    expect(call.status).toBe(200);
    const row = await waitUntil(async () => (await h.rows(owner.did))[0] ?? Promise.reject(new Error('no call row yet')), 20_000);
    expect(row).toMatchObject({ userId: owner.user.id, testCall: true });
    call.hangUp();
    sip.close();
    await h.finishedRow(owner.did);
  });

  it('refuses another owner’s number and any other extension with 403, before anything answers', async () => {
    const other = await h.business({ businessName: 'Someone Else Ltd' });
    const c = await credentials();
    const sip = await open(c);
    expect((await sip.invite(c, `sip:${other.did}@callkeeper.invalid`)).status).toBe(403);
    sip.close();
    // One connection carries one call: fresh credentials for each further attempt.
    for (const target of ['sip:100@callkeeper.invalid', 'sip:s@callkeeper.invalid', `sip:${owner.did.slice(1)}@callkeeper.invalid`]) {
      const c2 = await credentials();
      const s2 = await open(c2);
      expect((await s2.invite(c2, target)).status, target).toBe(403);
      s2.close();
    }
    expect(await h.rows(other.did)).toEqual([]);
  });

  it('refuses a second simultaneous test call: new credentials while one is connected, a second INVITE on the socket', async () => {
    const c = await credentials();
    const sip = await open(c);
    const again = await owner.client.post('/api/test-call');
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('A test call is already in progress.');
    const first = await sip.invite(c, c.sipUri);
    expect(first.status).toBe(200);
    expect((await sip.invite(c, c.sipUri)).status).toBe(403);
    first.hangUp();
    sip.close();
    await waitUntil(async () => expect((await owner.client.post('/api/test-call')).status).toBe(200), 10_000);
  });

  it('opens the WebSocket only for the signed-in owner, from the console’s origin, once per set of credentials', async () => {
    const c = await credentials();
    expect(await connect(h.server.url, c.wsPath, { origin })).toEqual({ refused: 401 });
    expect(await connect(h.server.url, c.wsPath, { origin: 'https://evil.example', cookie: owner.client.cookie })).toEqual({ refused: 403 });
    const someoneElse = await activeCustomer(h.server);
    expect(await connect(h.server.url, c.wsPath, { origin, cookie: someoneElse.client.cookie })).toEqual({ refused: 403 });
    const sip = await open(c);
    expect(await connect(h.server.url, c.wsPath, { origin, cookie: owner.client.cookie })).toEqual({ refused: 403 });
    // A wrong password is Asterisk's refusal: the endpoint is this call's, with this call's secret.
    const wrong = await sip.invite({ user: c.user, password: 'not-the-password' }, c.sipUri);
    expect(wrong.status).toBe(401);
    sip.close();
  });

  it('says why when the owner has no number, and refuses a signed-out request', async () => {
    const { client } = await activeCustomer(h.server);
    const res = await client.post('/api/test-call');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('You have no phone number yet: get one on Phone Numbers first.');
    const signedOut = await fetch(`${h.server.url}/api/test-call`, { method: 'POST' });
    expect(signedOut.status).toBe(401);
  });
});
