// Texts with callers through Twilio (the double): a caller's reply by the signed webhook, STOP
// answered through Twilio, and Twilio's status callbacks (signed like the inbound webhook, to
// PUBLIC_URL, passed on by a reverse proxy) marking texts delivered or failed with the reason.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import twilio from 'twilio';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveTextBack } from '../../core/caller-texts/store.js';
import { callerTexts } from '../helpers/tables.js';
import { CALLER, DID, OWNER_MOBILE, startHarness, type Harness } from '../pipeline/harness.js';
import { finishCall, giveNumber, thread } from './helpers.js';

let h: Harness | undefined;
let proxy: http.Server | undefined;
afterEach(async () => {
  await h?.server.services.callerTexts.stop();
  await h?.close();
  proxy?.closeAllConnections();
  await new Promise((r) => proxy?.close(r));
  h = proxy = undefined;
});

/** PUBLIC_URL's reverse proxy: what reaches it goes on to the test server, which starts after it. */
async function start(): Promise<{ publicUrl: string }> {
  let target = '';
  proxy = http.createServer((req, res) => {
    const out = http.request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    req.pipe(out);
  });
  await new Promise<void>((r) => proxy!.listen(0, '127.0.0.1', r));
  const publicUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  h = await startHarness({ env: { PUBLIC_URL: publicUrl } });
  target = h.server.url;
  await giveNumber(h.server, h.ownerId, DID);
  h.server.services.callerTexts.start();
  return { publicUrl };
}

const toCaller = (to: string) => h!.twilio.messages.filter((m) => m.to === to);

describe('texts with callers through Twilio', () => {
  it('a caller\'s reply by the signed webhook lands in their thread and reaches the owner; STOP is confirmed through Twilio', async () => {
    const { publicUrl } = await start();
    const res = await h!.twilio.sendInbound({ deliverTo: `${h!.server.url}/api/twilio/messages`, signedUrl: `${publicUrl}/api/twilio/messages`, from: CALLER, to: DID, body: 'Can you quote for a new boiler?' });
    expect(res.status).toBe(200);
    expect((await thread(h!.server, h!.ownerId, CALLER)).map((t) => [t.kind, t.status, t.body])).toEqual([['caller', 'received', 'Can you quote for a new boiler?']]);
    expect(toCaller(OWNER_MOBILE).map((m) => m.body)).toEqual([expect.stringContaining(`Text from ${CALLER}: "Can you quote for a new boiler?"`)]);

    await h!.twilio.sendInbound({ deliverTo: `${h!.server.url}/api/twilio/messages`, signedUrl: `${publicUrl}/api/twilio/messages`, from: CALLER, to: DID, body: 'STOP' });
    expect(toCaller(CALLER)).toEqual([expect.objectContaining({ from: DID, body: 'You will get no more texts from Acme Plumbing. Reply START to receive texts again.' })]);
    // Unsigned: refused, nothing stored.
    const forged = await h!.twilio.sendInbound({ deliverTo: `${h!.server.url}/api/twilio/messages`, signedUrl: `${publicUrl}/api/twilio/messages`, from: CALLER, to: DID, body: 'START', signature: 'bm90LXJlYWw=' });
    expect(forged.status).toBe(403);
    expect(await thread(h!.server, h!.ownerId, CALLER)).toHaveLength(3);
  });

  it('a caller\'s text holding direction controls and invisible characters is kept without them, never refused and lost', async () => {
    const { publicUrl } = await start();
    const body = 'Tues\u202Eday at 10\u200B ok?\u0000\u2066\uFEFF Call me \u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}';
    const res = await h!.twilio.sendInbound({ deliverTo: `${h!.server.url}/api/twilio/messages`, signedUrl: `${publicUrl}/api/twilio/messages`, from: CALLER, to: DID, body });
    expect(res.status).toBe(200);
    const seen = 'Tuesday at 10 ok? Call me \u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}';
    expect((await thread(h!.server, h!.ownerId, CALLER)).map((t) => t.body)).toEqual([seen]);
    expect(toCaller(OWNER_MOBILE).map((m) => m.body)).toEqual([expect.stringContaining(`Text from ${CALLER}: "${seen}"`)]);
  });

  it('status callbacks mark one text delivered and another failed with the provider\'s reason; a forged one is refused', async () => {
    const { publicUrl } = await start();
    await saveTextBack(h!.server.database.db, h!.ownerId, { enabled: true, wording: 'Sorry we missed you, reply here', windowHours: 24, hours: 'always' }, new Date());
    const other = '+447700900401';
    await finishCall(h!.server, h!.ownerId, DID, CALLER);
    await finishCall(h!.server, h!.ownerId, DID, other);
    await vi.waitFor(() => expect(toCaller(CALLER).length + toCaller(other).length).toBe(2), { timeout: 20_000, interval: 20 });
    const [good, bad] = [toCaller(CALLER)[0]!, toCaller(other)[0]!];
    expect(good.statusCallback).toBe(`${publicUrl}/api/twilio/message-status`);

    expect(await h!.twilio.deliverStatus(good.sid, 'sent')).toBe(200);
    expect(await h!.twilio.deliverStatus(good.sid, 'delivered')).toBe(200);
    expect(await h!.twilio.deliverStatus(bad.sid, 'undelivered', 30003)).toBe(200);
    const row = async (sid: string) => (await h!.server.database.db.select().from(callerTexts).where(eq(callerTexts.providerId, sid)))[0]!;
    expect(await row(good.sid)).toMatchObject({ status: 'delivered', error: null });
    expect(await row(bad.sid)).toMatchObject({ status: 'undelivered', error: 'the phone is switched off or out of signal (Twilio 30003)' });
    // A late 'sent' does not undo a final status.
    await h!.twilio.deliverStatus(good.sid, 'sent');
    expect((await row(good.sid)).status).toBe('delivered');

    const params = { MessageSid: good.sid, MessageStatus: 'failed', ErrorCode: '30007' };
    const post = (signature: string) => fetch(`${h!.server.url}/api/twilio/message-status`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature }, body: new URLSearchParams(params).toString(),
    });
    // Signed with another account's token: refused.
    expect((await post(twilio.getExpectedTwilioSignature('not-the-token', `${publicUrl}/api/twilio/message-status`, params))).status).toBe(403);
    expect((await row(good.sid)).status).toBe('delivered');
  });

  it('a text Twilio refuses at once shows failed with the reason', async () => {
    await start();
    h!.twilio.failNext('Messages', { status: 400, code: 21612, message: 'The To phone number is not currently reachable via SMS' });
    const r = await h!.server.services.callerTexts.road.send({ userId: h!.ownerId, to: CALLER, from: DID, kind: 'owner', body: 'Hello', key: 'owner:t1', retry: false });
    expect(r).toMatchObject({ outcome: 'failed', text: { status: 'failed', error: expect.stringContaining('21612') } });
  });
});
