// SPAM / NOT SPAM replied to a summary text (issue 43): through Twilio's signed webhook and the
// local inbox, each changes exactly that owner's lists, and the owner is told what it did.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { insertUser } from '../../core/accounts/users.js';
import { calls, spamMarks } from '../helpers/tables.js';
import { LOCAL_INBOX, startLocalInbox, type LocalInbox } from '../../core/followup/local-inbox.js';
import { screenBeforeAnswer } from '../../core/screening/lookup.js';
import { CALLER, DID, OWNER_MOBILE, startHarness, type Harness } from '../pipeline/harness.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { phoneNumbers } from '../helpers/tables.js';

const PUBLIC_URL = 'https://callkeeper.example.co.uk';
const SIGNED_URL = `${PUBLIC_URL}/api/twilio/messages`;
const OTHER_DID = '+447700900002';

let h: Harness | undefined;
let server: TestServer | undefined;
let inbox: LocalInbox | undefined;
afterEach(async () => {
  await inbox?.stop();
  await h?.close();
  await server?.close();
  h = server = inbox = undefined;
});

const marksOf = async (db: TestServer['database']['db']) => (await db.select({ userId: spamMarks.userId, number: spamMarks.number, verdict: spamMarks.verdict }).from(spamMarks));

// Generous: on PostgreSQL on a loaded 2-core machine a fresh server and database take a while.
describe('SPAM and NOT SPAM by Twilio', { timeout: 90_000 }, () => {
  const text = (body: string, from = OWNER_MOBILE, to = DID) => h!.twilio.sendInbound({ deliverTo: `${h!.server.url}/api/twilio/messages`, signedUrl: SIGNED_URL, from, to, body });
  const replies = () => h!.twilio.messages.map((m) => m.body);

  it('SPAM <ref> marks that owner\'s caller spam; NOT SPAM <ref> moves it to the allow list', async () => {
    h = await startHarness({ env: { PUBLIC_URL } });
    const db = h.server.database.db;
    await db.insert(phoneNumbers).values({ phoneNumber: DID, provider: 'static', providerSid: DID, userId: h.ownerId, assignedAt: new Date() });
    const other = await insertUser(db, { email: 'other@example.co.uk', passwordHash: 'x', accountStatus: 'active', notificationNumber: '+447700900333' });
    await db.insert(phoneNumbers).values({ phoneNumber: OTHER_DID, provider: 'static', providerSid: OTHER_DID, userId: other.id, assignedAt: new Date() });
    const id = await h.finishedCall({ status: 'missed' });

    expect((await text(`SPAM ${id}`)).status).toBe(200);
    expect(replies()).toEqual([`${CALLER} (call ${id}) is marked as spam: their next calls are screened before they reach you. Reply NOT SPAM ${id} to undo.`]);
    expect(await marksOf(db)).toEqual([{ userId: h.ownerId, number: CALLER, verdict: 'spam' }]);
    expect(await screenBeforeAnswer(db, DID, CALLER, new Date())).toEqual({ screen: true, by: 'owner', action: 'reject' });

    await text(`not spam ${id}`);
    expect(replies()[1]).toBe(`${CALLER} (call ${id}) is marked as not spam: their calls always reach you.`);
    expect(await marksOf(db)).toEqual([{ userId: h.ownerId, number: CALLER, verdict: 'allow' }]);
    expect(await screenBeforeAnswer(db, DID, CALLER, new Date())).toEqual({ screen: false });

    // Another owner naming this call's reference finds nothing: references do not leak, nor do lists.
    await text(`SPAM ${id}`, '+447700900333', OTHER_DID);
    expect(replies()[2]).toBe(`There is no call ${id} on your account. Check the number at the end of the text.`);
    expect((await marksOf(db)).filter((m) => m.userId === other.id)).toEqual([]);

    await text('SPAM');
    expect(replies()[3]).toBe('Please add the call\'s reference from the text, e.g. SPAM 41.');
  });
});

// Generous: on PostgreSQL on a loaded 2-core machine a fresh server and database take a while.
describe('SPAM by the local inbox (no Twilio)', { timeout: 90_000 }, () => {
  it('a dropped SPAM <ref> text marks the number and answers in the outbox', async () => {
    server = await startTestServer();
    const db = server.database.db;
    const owner = await insertUser(db, { email: 'owner@example.co.uk', passwordHash: 'x', accountStatus: 'active', notificationNumber: OWNER_MOBILE });
    const id = (await db.insert(calls).values({ userId: owner.id, fromNumber: CALLER, toNumber: DID, status: 'voicemail' }).returning())[0]!.id;
    inbox = startLocalInbox(server.services, { watch: false });
    const dir = path.join(server.dataDir, LOCAL_INBOX);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, '0001.tmp'), JSON.stringify({ from: '07700 900222', to: DID, body: `Spam ${id}` }));
    fs.renameSync(path.join(dir, '0001.tmp'), path.join(dir, '0001.json'));

    expect(await inbox.scan()).toEqual({ '0001.json': 'handled' });
    expect(await marksOf(db)).toEqual([{ userId: owner.id, number: CALLER, verdict: 'spam' }]);
    const out = path.join(server.dataDir, 'outbox', 'sms');
    const bodies = fs.readdirSync(out).map((f) => (JSON.parse(fs.readFileSync(path.join(out, f), 'utf8')) as { body: string }).body);
    expect(bodies).toEqual([expect.stringContaining(`(call ${id}) is marked as spam`)]);
  });
});
