// Replies to the summary text: Twilio's inbound-message webhook, signed like Twilio signs it
// (the double computes X-Twilio-Signature with the SDK over PUBLIC_URL's address and posts the
// form to the server, as a reverse proxy would pass it on), each command's effect and answer.
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordUnansweredQuestion } from '../../core/questions/repository.js';
import { insertUser } from '../../core/accounts/users.js';
import { calls, inboundMessages, notifications, unansweredQuestions, users } from '../helpers/tables.js';
import { HELP_TEXT } from '../../core/followup/commands.js';
import { CALLER, DID, OWNER_MOBILE, startHarness, type Harness } from '../pipeline/harness.js';

const PUBLIC_URL = 'https://callkeeper.example.co.uk';
const SIGNED_URL = `${PUBLIC_URL}/api/twilio/messages`;

let h: Harness | undefined;
let logLines: string[] = [];
afterEach(async () => {
  await h?.close();
  h = undefined;
  logLines = [];
});

async function start() {
  const log = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });
  h = await startHarness({ env: { PUBLIC_URL }, log });
  return h;
}

/** A text from `from` (the owner's mobile unless said), delivered to the server and signed over PUBLIC_URL. */
const text = (body: string, o: { from?: string; messageSid?: string; signature?: string | null; signedUrl?: string } = {}) =>
  h!.twilio.sendInbound({ deliverTo: `${h!.server.url}/api/twilio/messages`, signedUrl: o.signedUrl ?? SIGNED_URL, from: o.from ?? OWNER_MOBILE, to: DID, body, messageSid: o.messageSid, signature: o.signature });

const replies = () => h!.twilio.messages.map((m) => m.body);
const user = async () => (await h!.server.database.db.select().from(users).where(eq(users.id, h!.ownerId)).limit(1))[0]!;
const logged = () => logLines.map((l) => JSON.parse(l) as Record<string, unknown>);

describe('the summary text carries its reference', () => {
  it('ends each summary with "Reply DONE <id> when called back."', async () => {
    await start();
    const id = await h!.finishedCall({ status: 'missed' });
    h!.fireCallFinished(id);
    await vi.waitFor(() => expect(replies()).toHaveLength(1), { timeout: 15_000, interval: 20 });
    expect(replies()[0]).toMatch(new RegExp(`^Missed call from \\${CALLER} at \\d\\d:\\d\\d\\. No message was left\\. Reply DONE ${id} when called back\\.$`));
  });
});

describe('POST /api/twilio/messages', () => {
  it('DONE <ref>, signed by Twilio: marks the call called back and texts the owner back from the business number', async () => {
    await start();
    const id = await h!.finishedCall({ status: 'missed' });
    const res = await text(`DONE ${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
    expect((await h!.call(id)).calledBackAt).toBeInstanceOf(Date);
    expect(h!.twilio.messages).toHaveLength(1);
    expect(h!.twilio.messages[0]).toMatchObject({ to: OWNER_MOBILE, from: DID, body: `Call ${id} from ${CALLER} is marked as called back.` });
    const row = (await h!.server.database.db.select().from(notifications).where(eq(notifications.kind, 'reply')).limit(1))[0];
    expect(row).toMatchObject({ callId: id, userId: h!.ownerId, status: 'sent', to: OWNER_MOBILE, providerId: h!.twilio.messages[0]!.sid });

    await text(`done ${id}`); // case-insensitive; a second DONE says so
    expect(replies()[1]).toBe(`Call ${id} was already marked as called back.`);
  });

  it('refuses an unsigned webhook with 403, logs it by id, and does nothing', async () => {
    await start();
    const id = await h!.finishedCall({ status: 'missed' });
    const res = await text(`DONE ${id}`, { signature: null, messageSid: 'SM0123456789abcdef0123456789abcdef' });
    expect(res.status).toBe(403);
    expect((await h!.call(id)).calledBackAt).toBeNull();
    expect(h!.twilio.messages).toHaveLength(0);
    expect(await h!.server.database.db.select().from(inboundMessages)).toEqual([]);
    const entry = logged().find((l) => l.msg === 'twilio webhook refused');
    expect(entry).toMatchObject({ messageSid: 'SM0123456789abcdef0123456789abcdef', reason: 'no X-Twilio-Signature' });
    expect(logLines.join('\n')).not.toContain(`DONE ${id}`);
  });

  it('refuses a webhook signed with another token, or over another URL, with 403', async () => {
    await start();
    const id = await h!.finishedCall({ status: 'missed' });
    expect((await text(`DONE ${id}`, { signature: 'bm90IHRoZSByaWdodCBzaWduYXR1cmU=' })).status).toBe(403);
    // Signed for a different address than PUBLIC_URL's: Twilio was not configured with ours.
    expect((await text(`DONE ${id}`, { signedUrl: 'https://attacker.example/api/twilio/messages' })).status).toBe(403);
    expect((await h!.call(id)).calledBackAt).toBeNull();
    expect(h!.twilio.messages).toHaveLength(0);
    expect(logged().filter((l) => l.msg === 'twilio webhook refused').map((l) => l.reason)).toEqual([
      'X-Twilio-Signature does not match',
      'X-Twilio-Signature does not match',
    ]);
  });

  it('acts once on a MessageSid Twilio delivers twice', async () => {
    await start();
    const id = await h!.finishedCall({ status: 'missed' });
    const first = await text(`DONE ${id}`, { messageSid: 'SMaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' });
    const calledBackAt = (await h!.call(id)).calledBackAt;
    const again = await text(`DONE ${id}`, { messageSid: 'SMaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(replies()).toEqual([`Call ${id} from ${CALLER} is marked as called back.`]);
    expect((await h!.call(id)).calledBackAt).toEqual(calledBackAt);
    expect(await h!.server.database.db.select().from(inboundMessages)).toHaveLength(1);
  });

  it('ignores a text from any other number, logging it by id only', async () => {
    await start();
    const id = await h!.finishedCall({ status: 'missed' });
    const res = await text(`DONE ${id}`, { from: '+447700900555', messageSid: 'SMbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb' });
    expect(res.status).toBe(200);
    expect((await h!.call(id)).calledBackAt).toBeNull();
    expect(h!.twilio.messages).toHaveLength(0);
    const entry = logged().find((l) => l.messageSid === 'SMbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb' && String(l.msg).includes('ignored'));
    expect(entry).toBeDefined();
    expect(logLines.join('\n')).not.toMatch(/900555|DONE \d/);
    expect(await h!.server.database.db.select().from(inboundMessages)).toMatchObject([{ userId: null, command: null, outcome: 'ignored: not an owner' }]);
  });

  it("DONE and CALL never reach another business's call", async () => {
    await start();
    const other = await insertUser(h!.server.database.db, { email: 'other@example.co.uk', passwordHash: 'x', accountStatus: 'active' });
    const [theirs] = await h!.server.database.db
      .insert(calls)
      .values({ userId: other.id, fromNumber: '+447700900777', toNumber: '+447700900002', status: 'missed' })
      .returning();
    await text(`DONE ${theirs!.id}`);
    await text(`CALL ${theirs!.id}`);
    expect(replies()).toEqual([
      `There is no call ${theirs!.id} on your account. Check the number at the end of the text.`,
      `There is no call ${theirs!.id} on your account. Check the number at the end of the text.`,
    ]);
    expect((await h!.call(theirs!.id)).calledBackAt).toBeNull();
  });

  it('asks which business when the sender gets the notifications of several and the number texted does not say, then acts on the one named', async () => {
    await start();
    const db = h!.server.database.db;
    await db.update(users).set({ businessName: 'Acme Plumbing' }).where(eq(users.id, h!.ownerId));
    const other = await insertUser(db, { email: 'second@example.co.uk', passwordHash: 'x', accountStatus: 'active', businessName: 'Bright Dental', notificationNumber: OWNER_MOBILE });
    const id = await h!.finishedCall({ status: 'missed' });
    // Texted to a shared sender (a Messaging Service number), not either business's own number.
    const shared = '+447700900999';
    const send = (body: string) => h!.twilio.sendInbound({ deliverTo: `${h!.server.url}/api/twilio/messages`, signedUrl: SIGNED_URL, from: OWNER_MOBILE, to: shared, body });
    expect((await send(`DONE ${id}`)).status).toBe(200);
    expect(replies()).toEqual([
      `This number gets call notifications for 2 businesses: Acme Plumbing, Bright Dental. Which one is this for? Send it again starting with the business name and a colon, e.g. "Acme Plumbing: DONE ${id}".`,
    ]);
    expect((await h!.call(id)).calledBackAt).toBeNull();
    expect(await db.select().from(inboundMessages)).toMatchObject([{ userId: null, outcome: 'asked which business' }]);

    await send(`acme plumbing: DONE ${id}`);
    expect((await h!.call(id)).calledBackAt).toBeInstanceOf(Date);
    expect(replies()[1]).toBe(`Call ${id} from ${CALLER} is marked as called back.`);
    await send('Bright Dental: HELP');
    expect((await db.select().from(inboundMessages)).at(-1)).toMatchObject({ userId: other.id, command: 'help' });
  });

  it("CALL <ref> texts the caller's number as a tap-to-call link", async () => {
    await start();
    const id = await h!.finishedCall({ status: 'missed' });
    await text(`Call #${id}`);
    expect(replies()).toEqual([`Tap to call them back: tel:${CALLER}`]);
  });

  it('CALL <ref> for a withheld caller says there is no number, never tel:anonymous', async () => {
    await start();
    const id = await h!.finishedCall({ status: 'missed' });
    await h!.server.database.db.update(calls).set({ fromNumber: 'anonymous' }).where(eq(calls.id, id));
    await text(`CALL ${id}`);
    expect(replies()).toEqual([`Call ${id} came from a withheld number, so it cannot be called back.`]);
  });

  it('KB <answer> answers the latest pending question into the knowledge base', async () => {
    await start();
    const db = h!.server.database.db;
    await db.update(users).set({ knowledgeBase: 'Q: Do you fix boilers?\nA: Yes, all makes.' }).where(eq(users.id, h!.ownerId));
    const older = await recordUnansweredQuestion(db, { userId: h!.ownerId, question: 'Do you cover Leeds?', callerNumber: CALLER, aiResponse: null, createdAt: new Date(Date.now() - 60_000) });
    const latest = await recordUnansweredQuestion(db, { userId: h!.ownerId, question: 'Are you open on Saturdays?', callerNumber: CALLER, aiResponse: null });
    await text('kb Yes, 8am to noon.');
    expect(replies()).toEqual(['Added to your knowledge base as the answer to "Are you open on Saturdays?".']);
    expect((await user()).knowledgeBase).toBe('Q: Do you fix boilers?\nA: Yes, all makes.\n\nQ: Are you open on Saturdays?\nA: Yes, 8am to noon.');
    const q = async (id: number) =>
      (await db.select({ resolved: unansweredQuestions.resolved, inKb: unansweredQuestions.addedToKnowledgeBase }).from(unansweredQuestions).where(eq(unansweredQuestions.id, id)))[0];
    expect(await q(latest.id)).toEqual({ resolved: true, inKb: true });
    expect(await q(older.id)).toEqual({ resolved: false, inKb: false });

    await text('KB');
    expect(replies()[1]).toBe('Please put your answer after KB, e.g. KB We open at 8am on Saturdays.');
  });

  it('KB with no pending question says so and changes nothing', async () => {
    await start();
    await text('KB We open at 8.');
    expect(replies()).toEqual(['There is no unanswered question waiting for an answer.']);
    expect((await user()).knowledgeBase).toBeNull();
  });

  it('AGENT ON and AGENT OFF switch the AI mode and tell the settings listeners', async () => {
    await start();
    const heard: number[] = [];
    h!.server.services.hooks.settingsChanged.push((id) => heard.push(id));
    await text('AGENT ON');
    expect((await user()).aiMode).toBe('agent');
    await text('agent off');
    expect((await user()).aiMode).toBe('voicemail');
    await text('AGENT maybe');
    expect(replies()).toEqual([
      'Your AI receptionist is on: it will answer your calls from now on.',
      'Your AI receptionist is off: callers can leave you a voicemail.',
      'Please reply AGENT ON or AGENT OFF.',
    ]);
    expect(heard).toEqual([h!.ownerId, h!.ownerId]);
  });

  it('HELP lists the commands; anything else is answered with the list', async () => {
    await start();
    await text('help');
    await text('Thanks!');
    expect(replies()).toEqual([HELP_TEXT, `Sorry, that is not a command I know. ${HELP_TEXT}`]);
  });

  it('answers a WhatsApp text on WhatsApp', async () => {
    await start();
    const id = await h!.finishedCall({ status: 'missed' });
    const res = await h!.twilio.sendInbound({
      deliverTo: `${h!.server.url}/api/twilio/messages`,
      signedUrl: SIGNED_URL,
      from: `whatsapp:${OWNER_MOBILE}`,
      to: `whatsapp:${DID}`,
      body: `DONE ${id}`,
    });
    expect(res.status).toBe(200);
    expect(h!.twilio.messages).toMatchObject([{ to: `whatsapp:${OWNER_MOBILE}`, from: `whatsapp:${DID}` }]);
  });

  it('takes forms only: a JSON body (objects where Twilio sends text) is 415, whatever it holds, and nothing is logged as an error', async () => {
    await start();
    const id = await h!.finishedCall({ status: 'missed' });
    for (const body of ['{"Body":{"toString":"x"}}', `{"Body":"DONE ${id}","From":"${OWNER_MOBILE}","To":"${DID}","MessageSid":"SM1"}`, '[1,2]', 'not json']) {
      const res = await fetch(`${h!.server.url}/api/twilio/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-twilio-signature': 'abc' }, body });
      expect(res.status).toBe(415);
      expect(((await res.json()) as { message: string }).message).toBe('Twilio webhooks are sent as forms (Content-Type: application/x-www-form-urlencoded).');
    }
    const plain = await fetch(`${h!.server.url}/api/twilio/messages`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'Body=x' });
    expect(plain.status).toBe(415);
    expect((await h!.call(id)).calledBackAt).toBeNull();
    expect(logged().filter((l) => (l.level as number) >= 50)).toEqual([]);
  });

  it("the webhook's form body does not open the rest of /api to forms", async () => {
    await start();
    const res = await fetch(`${h!.server.url}/api/auth/logout`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=b' });
    expect(res.status).toBe(415);
    // An unknown path beside it has no route declaration to read: a plain JSON 404.
    const unknown = await fetch(`${h!.server.url}/api/twilio/other`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=b' });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
