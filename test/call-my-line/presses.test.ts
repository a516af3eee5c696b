// Issue 39, the lows of "Call my line": presses are limited per owner, parallel presses leave
// no endpoint on Asterisk that nothing removes, one left by an earlier run is swept when the
// core connects, the proxy neither buffers without bound nor waits for ever for Asterisk's
// /ws, and a malformed address is a 400. On the real Asterisk 20.17.0.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../helpers/client.js';
import { waitUntil } from '../helpers/wait.js';
import { realPbxAvailability, startRealPbx, type RealPbx } from '../pbx-real/harness.js';
import { ownerWithLine } from './owner-line.js';
import { connect, SipSocket, type Credentials } from './sip-ws-client.js';

const real = realPbxAvailability();
vi.setConfig({ testTimeout: 90_000 });

/** The Call my line endpoints Asterisk holds now. */
async function callMyLineEndpoints(h: RealPbx): Promise<string[]> {
  const all = await h.asterisk.ariGet<Array<{ resource: string }>>('/endpoints/PJSIP');
  return all.map((e) => e.resource).filter((n) => n.startsWith('tc-')).sort();
}

async function openSocket(h: RealPbx, owner: { client: ApiClient }, c: Credentials): Promise<SipSocket> {
  const s = await connect(h.server.url, c.wsPath, { origin: h.server.url, cookie: owner.client.cookie });
  if (!(s instanceof SipSocket)) throw new Error(`upgrade refused with ${s.refused}`);
  return s;
}

const options = (n: number) =>
  [`OPTIONS sip:callkeeper.invalid SIP/2.0`, `Via: SIP/2.0/WSS a${n}.invalid;branch=z9hG4bK${n}`, 'To: <sip:callkeeper.invalid>', `From: <sip:x@callkeeper.invalid>;tag=${n}`, `Call-ID: o${n}`, `CSeq: ${n} OPTIONS`, 'Content-Length: 0', '', ''].join('\r\n');

describe.skipIf(!real.ok)('“Call my line” presses and the proxy', () => {
  let h: RealPbx;
  beforeAll(async () => {
    h = await startRealPbx();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('parallel presses leave one endpoint on Asterisk, the last one’s, and none once its call has ended', async () => {
    const owner = await ownerWithLine(h.server, '+447700900841');
    const answers = await Promise.all(Array.from({ length: 8 }, () => owner.client.post<Credentials>('/api/test-call')));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    const left = await callMyLineEndpoints(h);
    expect(left).toHaveLength(1);
    const last = answers.find((a) => a.body.user === left[0])!.body;
    const s = await openSocket(h, owner, last);
    s.close();
    await waitUntil(async () => expect(await callMyLineEndpoints(h)).toEqual([]), 20_000);
  });

  it('an owner’s eleventh press in an hour is refused with 429, saying how long to wait', async () => {
    const owner = await ownerWithLine(h.server, '+447700900842');
    for (let i = 0; i < 10; i++) expect((await owner.client.post('/api/test-call')).status).toBe(200);
    const eleventh = await owner.client.post('/api/test-call');
    expect(eleventh.status).toBe(429);
    expect(eleventh.body.message).toMatch(/^You can make 10 test calls an hour\. Please wait \d+ minutes? and try again\.$/);
    // The refused press withdrew nothing: the tenth press's credentials are still the owner's one endpoint.
    expect(await callMyLineEndpoints(h)).toHaveLength(1);
  });

  it('a malformed %-escape in the proxy’s path is a 400 with a message, not a 500', async () => {
    const owner = await ownerWithLine(h.server, '+447700900843');
    for (const path of ['/api/test-call/ws/%E0%A4%A', '/api/test-call/ws/%', '/api/test-call/ws/tc-zz']) {
      expect(await connect(h.server.url, path, { origin: h.server.url, cookie: owner.client.cookie }), path).toEqual({ refused: 400 });
    }
  });

  it('while Asterisk’s /ws does not answer the upgrade: a browser that floods is closed (1008), one that waits is given up on (1011)', async () => {
    const flooder = await ownerWithLine(h.server, '+447700900844');
    const waiter = await ownerWithLine(h.server, '+447700900845');
    const floodCreds = (await flooder.client.post<Credentials>('/api/test-call')).body;
    const waitCreds = (await waiter.client.post<Credentials>('/api/test-call')).body;
    // Asterisk stopped: its kernel still accepts the TCP connection, nothing answers the upgrade.
    process.kill(h.asterisk.pid!, 'SIGSTOP');
    try {
      const flood = await openSocket(h, flooder, floodCreds);
      for (let n = 1; n <= 400 && flood.send(options(n)); n++) {
        if (n % 20 === 0) await new Promise((r) => setImmediate(r));
      }
      await waitUntil(() => expect(flood.closedWith).toEqual({ code: 1008, reason: 'Too much sent before the phone system answered.' }), 20_000);

      const patient = await openSocket(h, waiter, waitCreds);
      patient.send(options(1));
      await waitUntil(() => expect(patient.closedWith).toEqual({ code: 1011, reason: 'The phone system did not answer: try again in a minute.' }), 40_000, 200);
    } finally {
      process.kill(h.asterisk.pid!, 'SIGCONT');
    }
  });
});

describe.skipIf(!real.ok)('a Call my line endpoint an earlier run of the core left on Asterisk', () => {
  let h: RealPbx;
  const leftover = 'tc-00000000deadbeef';
  beforeAll(async () => {
    h = await startRealPbx({
      // Before the core connects: as a core that stopped without removing its endpoints leaves Asterisk.
      ariVia: async (url, asterisk) => {
        const put = (type: string, fields: Record<string, string>) =>
          fetch(`${url}/ari/asterisk/config/dynamic/res_pjsip/${type}/${leftover}`, {
            method: 'PUT',
            headers: { authorization: asterisk.basicAuth(), 'content-type': 'application/json' },
            body: JSON.stringify({ fields: Object.entries(fields).map(([attribute, value]) => ({ attribute, value })) }),
          }).then((r) => expect(r.status, `PUT ${type}`).toBe(200));
        await put('auth', { auth_type: 'userpass', username: leftover, password: 'an-old-password' });
        await put('endpoint', { context: 'test-call', auth: leftover, transport: 'transport-ws' });
        return url;
      },
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is removed when the core connects', async () => {
    await waitUntil(async () => expect(await callMyLineEndpoints(h)).toEqual([]), 20_000);
  });
});
