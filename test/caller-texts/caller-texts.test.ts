// Texts with callers without Twilio: the missed-call text-back into the outbox, a caller's reply
// dropped into the local inbox, the owner's answer from the console, STOP/START, caps, and the
// thread in the GDPR export, erasure and retention. Each through the HTTP API and the real jobs.
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callerOptOuts, callerTexts, notifications } from '../helpers/tables.js';
import { tablesOf } from '../../core/db/schema.js';
import { startLocalInbox, type LocalInbox } from '../../core/followup/local-inbox.js';
import { applyRetention } from '../../core/privacy/retention.js';
import { activeCustomer } from '../helpers/accounts.js';
import type { ApiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { dropText, finishCall, giveNumber, outboxTo, ownerTextsTo, textBackSettled, thread } from './helpers.js';

const DID = '+447700900050';
const CALLER = '+447700900301';

let server: TestServer | undefined;
let inbox: LocalInbox | undefined;
afterEach(async () => {
  await inbox?.stop();
  await server?.services.callerTexts.stop();
  await server?.close();
  server = inbox = undefined;
});

async function start(env: Record<string, string> = {}): Promise<{ client: ApiClient; userId: number }> {
  server = await startTestServer({ env });
  server.services.callerTexts.start();
  inbox = startLocalInbox(server.services, { watch: false });
  const { client, user } = await activeCustomer(server, { businessName: 'Hale Plumbing' });
  await giveNumber(server, user.id, DID);
  return { client, userId: user.id };
}

const textBackOn = (client: ApiClient, o: Record<string, unknown> = {}) =>
  client.request('PUT', '/api/user/text-back', { enabled: true, wording: null, windowHours: 24, hours: 'always', ...o });

describe('missed-call text-back', () => {
  it('is off by default: a missed call from a mobile gets no text', async () => {
    const { client, userId } = await start();
    expect((await client.get('/api/user/text-back')).body.settings).toEqual({ enabled: false, wording: null, windowHours: 24, hours: 'always' });
    const id = await finishCall(server!, userId, DID, CALLER);
    await textBackSettled(server!, id);
    expect(outboxTo(server!, CALLER)).toEqual([]);
  });

  it('texts a caller who left no message once, from the number they rang, in the default wording', async () => {
    const { client, userId } = await start();
    const on = await textBackOn(client);
    expect(on.status).toBe(200);
    expect(on.body.defaultWording).toBe('Sorry we missed your call to Hale Plumbing. Reply here with what you need and we will get back to you. Reply STOP to opt out.');
    const first = await finishCall(server!, userId, DID, CALLER);
    await vi.waitFor(() => expect(outboxTo(server!, CALLER)).toHaveLength(1), { timeout: 20_000, interval: 20 });
    expect(outboxTo(server!, CALLER)[0]).toMatchObject({ from: DID, body: on.body.defaultWording });
    // Again within the window: nothing more.
    const second = await finishCall(server!, userId, DID, CALLER);
    await textBackSettled(server!, second);
    expect(outboxTo(server!, CALLER)).toHaveLength(1);
    expect(await thread(server!, userId, CALLER)).toEqual([expect.objectContaining({ kind: 'text-back', status: 'sent', callId: first, segments: 1 })]);
  });

  it('uses the owner\'s wording and never texts a voicemail, a landline, a withheld or a blocked caller', async () => {
    const { client, userId } = await start();
    expect((await textBackOn(client, { wording: 'Sorry we missed you — reply here' })).status).toBe(200);
    const others = [
      await finishCall(server!, userId, DID, '+447700900401', { status: 'voicemail' }),
      await finishCall(server!, userId, DID, '+441632960123'),
      await finishCall(server!, userId, DID, 'anonymous'),
      await finishCall(server!, userId, DID, '+447700900501', { callerTag: 'blocked' }),
    ];
    const mobile = await finishCall(server!, userId, DID, '+447700900601');
    await textBackSettled(server!, mobile);
    for (const id of others.slice(1)) await textBackSettled(server!, id);
    expect(outboxTo(server!, '+447700900601').map((m) => m.body)).toEqual(['Sorry we missed you — reply here']);
    expect((await server!.database.db.select().from(callerTexts)).map((t) => t.callerNumber)).toEqual(['+447700900601']);
  });

  it('ten text-backs to one number, or to one range of 100, tried at once (two cores): one goes out', async () => {
    const { userId } = await start();
    const { road } = server!.services.callerTexts;
    const tryAll = (to: (i: number) => string, tag: string) =>
      Promise.all(Array.from({ length: 10 }, (_, i) => road.send({ userId, to: to(i), from: DID, kind: 'text-back', body: 'Sorry we missed you', key: `text-back:${tag}-${i}`, windowHours: 24, retry: true })));
    const same = await tryAll(() => CALLER, 'same');
    expect(same.filter((r) => r.outcome === 'sent')).toHaveLength(1);
    expect(same.filter((r) => r.outcome === 'refused' && r.reason === 'recently-texted')).toHaveLength(9);
    const range = await tryAll((i) => `+4477009007${String(i).padStart(2, '0')}`, 'range');
    expect(range.filter((r) => r.outcome === 'sent')).toHaveLength(1);
    expect(range.filter((r) => r.outcome === 'refused' && r.reason === 'range-texted')).toHaveLength(9);
  });

  it('follows the hours choice: "closed" texts only calls in closed hours', async () => {
    const { client, userId } = await start();
    await textBackOn(client, { hours: 'closed' });
    const open = await finishCall(server!, userId, DID, '+447700900401', { period: 'open' });
    const closed = await finishCall(server!, userId, DID, '+447700900501', { period: 'closed' });
    await textBackSettled(server!, open);
    await textBackSettled(server!, closed);
    expect(outboxTo(server!, '+447700900401')).toEqual([]);
    expect(outboxTo(server!, '+447700900501')).toHaveLength(1);
  });

  it('refuses bad settings with a 400 that says what is wanted, and keeps the old ones', async () => {
    const { client } = await start();
    await textBackOn(client);
    const window = await textBackOn(client, { windowHours: 0 });
    expect(window.status).toBe(400);
    expect(window.body.message).toBe('Texting the same caller again must wait a whole number of hours from 1 to 720');
    const long = await textBackOn(client, { wording: 'x'.repeat(481) });
    expect(long.status).toBe(400);
    expect(long.body.message).toBe('The text-back wording must be at most 480 characters');
    expect((await textBackOn(client, { hours: 'sometimes' })).body.message).toBe('When to text back must be one of always, open, closed');
    expect((await client.get('/api/user/text-back')).body.settings).toEqual({ enabled: true, wording: null, windowHours: 24, hours: 'always' });
  });
});

describe('a thread per caller (local inbox and outbox)', () => {
  it('a caller\'s reply lands in their thread and reaches the owner; the owner\'s answer reaches the outbox', async () => {
    const { client, userId } = await start();
    dropText(server!, 'r1.json', { from: '07700 900301', to: DID, body: 'Hi, can you come Tuesday about the boiler?' });
    expect(await inbox!.scan()).toEqual({ 'r1.json': 'caller' });
    const owner = ownerTextsTo(server!, '+447700900123');
    expect(owner.map((m) => m.body)).toEqual([expect.stringMatching(/^Text from \+447700900301: "Hi, can you come Tuesday about the boiler\?" Answer in the console: /)]);
    expect((await server!.database.db.select().from(notifications).where(eq(notifications.kind, 'caller-text')))[0]).toMatchObject({ userId, status: 'sent' });

    const sent = await client.post('/api/user/caller-texts/thread', { caller: '07700 900301', body: 'Yes, Tuesday at 10 works.' });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ message: 'Text sent', text: { kind: 'owner', status: 'sent', body: 'Yes, Tuesday at 10 works.', segments: 1 } });
    expect(outboxTo(server!, CALLER)).toEqual([expect.objectContaining({ from: DID, body: 'Yes, Tuesday at 10 works.' })]);

    const view = await client.get(`/api/user/caller-texts/thread?caller=${encodeURIComponent(CALLER)}`);
    expect(view.body.texts.map((t: { kind: string; body: string }) => [t.kind, t.body])).toEqual([
      ['caller', 'Hi, can you come Tuesday about the boiler?'],
      ['owner', 'Yes, Tuesday at 10 works.'],
    ]);
    expect((await client.get('/api/user/caller-texts')).body.threads).toEqual([
      expect.objectContaining({ callerNumber: CALLER, texts: 2, lastBody: 'Yes, Tuesday at 10 works.', lastKind: 'owner', optedOut: false }),
    ]);
  });

  it('answers only numbers that rang, texted or booked with the business: any other mobile is a 400 that says so', async () => {
    const { client, userId } = await start();
    const stranger = await client.post('/api/user/caller-texts/thread', { caller: '07700 900777', body: 'Hello' });
    expect([stranger.status, stranger.body.message]).toEqual([400, 'Texts go only to people who have called or texted your business or booked with it, and +447700900777 has not']);
    // Another business's caller is a stranger here too.
    const other = await activeCustomer(server!, { businessName: 'Other Ltd', businessPhone: '07700 900888' });
    await giveNumber(server!, other.user.id, '+447700900051');
    await finishCall(server!, other.user.id, '+447700900051', '+447700900778');
    expect((await client.post('/api/user/caller-texts/thread', { caller: '+447700900778', body: 'Hello' })).status).toBe(400);
    const { db } = server!.database;
    const { bookingServices, bookings } = tablesOf(db);
    const [service] = await db.insert(bookingServices).values({ userId, name: 'boiler service', durationMinutes: 60 }).returning();
    const startAt = new Date(Date.now() + 86_400_000);
    const endAt = new Date(startAt.getTime() + 3_600_000);
    await db.insert(bookings).values({ userId, serviceId: service!.id, startAt, endAt, blockEndAt: endAt, callerName: 'Ann', callerNumber: '+447700900779', slotKey: 'test' });
    await finishCall(server!, userId, DID, '+447700900780');
    dropText(server!, 'in.json', { from: '+447700900781', to: DID, body: 'Hello?' });
    await inbox!.scan();
    for (const caller of ['+447700900779', '+447700900780', '+447700900781']) {
      expect((await client.post('/api/user/caller-texts/thread', { caller, body: 'Hello' })).status).toBe(200);
    }
    expect(outboxTo(server!, '+447700900777')).toEqual([]);
    expect(outboxTo(server!, '+447700900778')).toEqual([]);
  });

  it('refuses an empty answer, a landline and a bad number with a 400 that says why', async () => {
    const { client } = await start();
    expect((await client.post('/api/user/caller-texts/thread', { caller: CALLER, body: '  ' })).body.message).toBe('Write the text first');
    const landline = await client.post('/api/user/caller-texts/thread', { caller: '020 7946 0123', body: 'Hello' });
    expect([landline.status, landline.body.message]).toEqual([400, 'Texts go only to UK mobile numbers (07…)']);
    expect((await client.post('/api/user/caller-texts/thread', { caller: 'bob', body: 'Hello' })).body.message).toBe('Caller must be a phone number, e.g. 07700 900123');
    expect(outboxTo(server!, CALLER)).toEqual([]);
  });

  it('a caller\'s text from the local inbox is stored without its direction controls and invisible characters', async () => {
    const { userId } = await start();
    dropText(server!, 'rlo.json', { from: CALLER, to: DID, body: '\u202Egnihtemos\u202C is \u00ADhidden\u200F\u0007 \u{E0041}\u{E0042}here\ud800' });
    expect(await inbox!.scan()).toEqual({ 'rlo.json': 'caller' });
    expect((await thread(server!, userId, CALLER)).map((t) => t.body)).toEqual(['gnihtemos is hidden here\uFFFD']);
  });

  it('a text to a number that is no business\'s is ignored, as before', async () => {
    await start();
    dropText(server!, 'x.json', { from: CALLER, to: '+447700900999', body: 'hello?' });
    expect(await inbox!.scan()).toEqual({ 'x.json': 'ignored' });
    expect(await server!.database.db.select().from(callerTexts)).toEqual([]);
  });
});

describe('STOP always works', () => {
  it('STOP stops every text (confirmed once), the console lists them, START undoes it', async () => {
    const { client, userId } = await start();
    await textBackOn(client);
    dropText(server!, 's1.json', { from: CALLER, to: DID, body: 'Stop' });
    dropText(server!, 's2.json', { from: CALLER, to: DID, body: 'STOP' });
    await inbox!.scan();
    expect(outboxTo(server!, CALLER).map((m) => m.body)).toEqual(['You will get no more texts from Hale Plumbing. Reply START to receive texts again.']);
    expect(ownerTextsTo(server!, '+447700900123')).toEqual([]); // a STOP is not passed on as a message
    expect((await client.get('/api/user/caller-opt-outs')).body.optOuts).toEqual([expect.objectContaining({ callerNumber: CALLER, word: 'STOP' })]);

    const answer = await client.post('/api/user/caller-texts/thread', { caller: CALLER, body: 'Are you sure?' });
    expect([answer.status, answer.body.message]).toEqual([409, 'This caller replied STOP: no texts can be sent to them until they reply START.']);
    const missed = await finishCall(server!, userId, DID, CALLER);
    await textBackSettled(server!, missed);
    expect(outboxTo(server!, CALLER)).toHaveLength(1);
    expect((await client.get(`/api/user/caller-texts/thread?caller=${encodeURIComponent(CALLER)}`)).body.optedOutAt).toEqual(expect.any(String));

    dropText(server!, 's3.json', { from: CALLER, to: DID, body: 'start' });
    await inbox!.scan();
    expect(outboxTo(server!, CALLER).map((m) => m.body).at(-1)).toBe('You will get texts from Hale Plumbing again. Reply STOP to stop them.');
    expect((await client.post('/api/user/caller-texts/thread', { caller: CALLER, body: 'Welcome back' })).status).toBe(200);
    expect(await server!.database.db.select().from(callerOptOuts)).toEqual([]);
  });

  it('each stop word stops: STOP ALL, UNSUBSCRIBE, END, QUIT, CANCEL', async () => {
    const { client } = await start();
    const words = ['STOP ALL', 'unsubscribe', 'End', 'QUIT', 'cancel'];
    words.forEach((body, i) => dropText(server!, `w${i}.json`, { from: `+4477009${String(i + 1).padStart(2, '0')}001`, to: DID, body }));
    await inbox!.scan();
    expect((await client.get('/api/user/caller-opt-outs')).body.optOuts.map((o: { word: string }) => o.word).sort()).toEqual(['CANCEL', 'END', 'QUIT', 'STOP ALL', 'UNSUBSCRIBE']);
  });
});

describe('caps', () => {
  it('the per-owner daily cap holds the next text back with a 429 that says so', async () => {
    const { client, userId } = await start({ CALLER_TEXTS_DAILY_PER_OWNER: '2' });
    await finishCall(server!, userId, DID, CALLER);
    for (const body of ['one', 'two']) expect((await client.post('/api/user/caller-texts/thread', { caller: CALLER, body })).status).toBe(200);
    const third = await client.post('/api/user/caller-texts/thread', { caller: CALLER, body: 'three' });
    expect([third.status, third.body.message]).toEqual([429, 'Today\'s limit of texts to callers for this business is reached; try again tomorrow.']);
    expect(outboxTo(server!, CALLER)).toHaveLength(2);
  });

  it('the box-wide cap holds back every business', async () => {
    const { client, userId } = await start({ CALLER_TEXTS_DAILY_BOX: '1' });
    await finishCall(server!, userId, DID, CALLER);
    expect((await client.post('/api/user/caller-texts/thread', { caller: CALLER, body: 'one' })).status).toBe(200);
    const other = await activeCustomer(server!, { businessName: 'Other Ltd', businessPhone: '07700 900777' });
    await giveNumber(server!, other.user.id, '+447700900051');
    await finishCall(server!, other.user.id, '+447700900051', '+447700900401');
    const refused = await other.client.post('/api/user/caller-texts/thread', { caller: '+447700900401', body: 'hi' });
    expect([refused.status, refused.body.message]).toEqual([429, 'Today\'s limit of texts to callers for this appliance is reached; try again tomorrow.']);
  });
});

describe('the thread and data protection', () => {
  it('is in the export, goes with the caller\'s erasure (their STOP stays) and with retention', async () => {
    const { client, userId } = await start();
    dropText(server!, 'a.json', { from: CALLER, to: DID, body: 'Is Tuesday ok?' });
    dropText(server!, 'b.json', { from: CALLER, to: DID, body: 'STOP' });
    await inbox!.scan();
    const exported = (await client.get('/api/user/export')).body;
    expect(exported.callerTexts.map((t: { kind: string; body: string }) => [t.kind, t.body])).toEqual([
      ['caller', 'Is Tuesday ok?'],
      ['caller', 'STOP'],
      ['stop', 'You will get no more texts from Hale Plumbing. Reply START to receive texts again.'],
    ]);
    expect(exported.callerOptOuts).toEqual([expect.objectContaining({ callerNumber: CALLER, word: 'STOP' })]);

    const erased = await client.delete(`/api/user/callers/${encodeURIComponent(CALLER)}`);
    expect(erased.body).toMatchObject({ deletedTexts: 3 });
    expect(await thread(server!, userId, CALLER)).toEqual([]);
    expect(await server!.database.db.select().from(callerOptOuts)).toHaveLength(1);

    await finishCall(server!, userId, DID, '+447700900401');
    expect((await client.post('/api/user/caller-texts/thread', { caller: '+447700900401', body: 'Old news' })).status).toBe(200);
    const in40Days = new Date(Date.now() + 40 * 24 * 3600_000);
    expect((await applyRetention(server!.database.db, server!.dataDir, { recordingDays: null, transcriptDays: 365 }, in40Days)).callerTexts).toBe(0);
    expect((await applyRetention(server!.database.db, server!.dataDir, { recordingDays: null, transcriptDays: 30 }, in40Days)).callerTexts).toBe(1);
    expect(await server!.database.db.select().from(callerTexts)).toEqual([]);
  });
});
