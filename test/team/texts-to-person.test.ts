// Texts go to the right person (issue 58, item 6), end to end: the real post-call pipeline (the
// Ollama double judging each call's urgency) writes its texts to the outbox folder, and replies
// dropped into the local inbox run through the same handler as Twilio's webhook.
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WEEKDAYS } from '../../contract/call-handling.js';
import type { OnCallRota } from '../../contract/team.js';
import { insertUser } from '../../core/accounts/users.js';
import { tablesOf } from '../../core/db/schema.js';
import { LOCAL_INBOX, startLocalInbox, type LocalInbox } from '../../core/followup/local-inbox.js';
import { useEngineDoubles } from '../helpers/engine-doubles.js';
import { CALLER, DID, OWNER_MOBILE, startHarness, type Harness } from '../pipeline/harness.js';

const SARAH = '+447700900444';
const TOM = '+447700900555';
const PRIYA = '+447700900666';
const summary = (urgency: 'urgent' | 'normal') => JSON.stringify({ summary: 'Dan has a leak under the sink.', urgency, urgencyReason: urgency === 'urgent' ? 'water everywhere' : 'a slow drip' });

/** When every call here came: the on-call member is the one on the rota for that London day. */
const CALLED_AT = new Date();

const engines = useEngineDoubles();
let h: Harness | undefined;
let inbox: LocalInbox | undefined;
afterEach(async () => {
  await inbox?.stop();
  await h?.close();
  h = inbox = undefined;
});

/** A business with a team: Sarah and Tom with confirmed phones, Priya whose phone never got its code. */
async function business(settings: { copyOwner?: boolean; tomOnCallToday?: boolean; sarahSees?: 'own' | 'everything' } = {}) {
  h = await startHarness({ env: { ...engines.env(), TWILIO_ACCOUNT_SID: '', TWILIO_AUTH_TOKEN: '', TWILIO_API_BASE: '' } });
  const db = h.server.database.db;
  const { staff, teamSettings } = tablesOf(db);
  const confirmed = new Date();
  const add = async (name: string, phone: string, phoneConfirmedAt: Date | null, view: 'own' | 'everything' = 'own') =>
    (await db.insert(staff).values({ userId: h!.ownerId, name, otherNames: [], phone, phoneConfirmedAt, view, position: 1 }).returning())[0]!.id;
  const team = {
    sarah: await add('Sarah', SARAH, confirmed, settings.sarahSees),
    tom: await add('Tom', TOM, confirmed),
    priya: await add('Priya', PRIYA, null),
  };
  await db.insert(teamSettings).values({ userId: h.ownerId, ringFirst: 'off', ringSeconds: 20, copyOwner: settings.copyOwner ?? false, rules: [], rota: settings.tomOnCallToday ? { [londonWeekday(CALLED_AT)]: team.tom } : {}, updatedAt: confirmed });
  return team;
}

/** The rota's key for `at`'s day in London ("mon" … "sun"). */
function londonWeekday(at: Date): keyof OnCallRota {
  const day = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', weekday: 'short' }).format(at).toLowerCase();
  const key = WEEKDAYS.find((d) => d === day);
  if (!key) throw new Error(`not a weekday: ${day}`);
  return key;
}

/** An agent call for `staffId` whose dialogue the flow already transcribed, through the whole post-call job. */
async function callFor(staffId: number | null, urgency: 'urgent' | 'normal' = 'normal'): Promise<number> {
  engines.ollama.replier = () => summary(urgency);
  const { calls } = tablesOf(h!.server.database.db);
  const id = await h!.finishedCall({ status: 'answered', mode: 'agent', createdAt: CALLED_AT });
  await h!.server.database.db.update(calls).set({ staffId, transcription: 'Caller: I have a leak under the sink.', transcriptionStatus: 'done' }).where(eq(calls.id, id));
  h!.fireCallFinished(id);
  await vi.waitFor(async () => expect((await h!.jobOf(id))?.status).toBe('done'), { timeout: 15_000, interval: 20 });
  return id;
}

/** What the outbox holds: [to, body] of every text, by recipient. */
function texts(): Array<[string, string]> {
  const dir = path.join(h!.server.dataDir, 'outbox', 'sms');
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir)
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { to: string; body: string })
    .map((m): [string, string] => [m.to, m.body])
    .sort(([a], [b]) => a.localeCompare(b));
}

/** Drops a text from `from` into the local inbox and handles it. */
async function reply(from: string, body: string): Promise<string | undefined> {
  inbox ??= startLocalInbox(h!.server.services, { watch: false });
  const dir = path.join(h!.server.dataDir, LOCAL_INBOX);
  fs.mkdirSync(dir, { recursive: true });
  const name = `${Math.random().toString(36).slice(2)}.json`;
  fs.writeFileSync(path.join(dir, `${name}.tmp`), JSON.stringify({ from, to: DID, body }));
  fs.renameSync(path.join(dir, `${name}.tmp`), path.join(dir, name));
  return (await inbox.scan())[name];
}

const textsTo = (to: string) => texts().filter(([t]) => t === to).map(([, body]) => body);
const calledBack = async (id: number) => (await h!.call(id)).calledBackAt;

describe('who a call is texted to (issue 58, item 6)', () => {
  it('a call for Sarah texts Sarah, not the owner', async () => {
    const team = await business();
    const id = await callFor(team.sarah);
    expect(texts()).toEqual([[SARAH, expect.stringMatching(new RegExp(`^Call answered by your AI receptionist from \\${CALLER} at \\d\\d:\\d\\d: Dan has a leak under the sink\\. Reply DONE ${id} when called back\\.$`))]]);
    expect(await h!.call(id)).toMatchObject({ notificationSent: true, notificationError: null });
  });

  it('with "copy me on everything" on, the owner gets a copy that names Sarah', async () => {
    const team = await business({ copyOwner: true });
    await callFor(team.sarah);
    expect(textsTo(SARAH)).toEqual([expect.stringMatching(/^Call answered by your AI receptionist from /)]);
    expect(textsTo(OWNER_MOBILE)).toEqual([expect.stringMatching(/^Message for Sarah: Call answered by your AI receptionist from .*Dan has a leak under the sink\./)]);
    expect(texts()).toHaveLength(2);
  });

  it('an urgent call while Tom is on call today texts Tom and the owner', async () => {
    await business({ tomOnCallToday: true });
    await callFor(null, 'urgent');
    expect(textsTo(TOM)).toEqual([expect.stringMatching(/^URGENT: Call answered by your AI receptionist from /)]);
    expect(textsTo(OWNER_MOBILE)).toEqual([expect.stringMatching(/^URGENT: Call answered by your AI receptionist from /)]);
    expect(texts()).toHaveLength(2);
  });

  it('a call for a member without a confirmed phone texts the owner, naming them', async () => {
    const team = await business();
    await callFor(team.priya);
    expect(texts()).toEqual([[OWNER_MOBILE, expect.stringMatching(/^Message for Priya: Call answered by your AI receptionist from /)]]);
  });

  it('a call for nobody in particular texts the owner exactly as before', async () => {
    await business({ copyOwner: true });
    const id = await callFor(null);
    expect(texts()).toEqual([[OWNER_MOBILE, expect.stringMatching(new RegExp(`^Call answered by your AI receptionist from .*Reply DONE ${id} when called back\\.$`))]]);
  });

  it('the call-back reminder about Sarah\'s missed call goes to Sarah, not the owner', async () => {
    const team = await business();
    const db = h!.server.database.db;
    const { calls, users } = tablesOf(db);
    await db.update(users).set({ callbackReminderHours: 1 }).where(eq(users.id, h!.ownerId));
    const id = await h!.finishedCall({ status: 'missed', createdAt: new Date(h!.server.services.now().getTime() - 2 * 3600_000) });
    await db.update(calls).set({ staffId: team.sarah }).where(eq(calls.id, id));
    await h!.pipeline.remindCallbacks();
    // The minute's own pass may have sent it first: either way, once, to Sarah.
    await vi.waitFor(() => expect(textsTo(SARAH)).toEqual([expect.stringMatching(new RegExp(`^Reminder: you have not called \\${CALLER} back yet .*Reply DONE ${id} when called back\\.$`))]), { timeout: 15_000, interval: 20 });
    expect(textsTo(OWNER_MOBILE)).toEqual([]);
  });
});

describe('replies from a team member\'s phone (issue 58, item 6)', () => {
  it('DONE from Sarah\'s phone marks her call called back, and the answer goes to her', async () => {
    const team = await business();
    const id = await callFor(team.sarah);
    expect(await reply(SARAH, `DONE ${id}`)).toBe('handled');
    expect(await calledBack(id)).toBeInstanceOf(Date);
    expect(textsTo(SARAH)).toContain(`Call ${id} from ${CALLER} is marked as called back.`);
  });

  it('DONE, CALL or SPAM from Sarah\'s phone on Tom\'s call is refused while she sees only her own calls', async () => {
    const team = await business();
    const id = await callFor(team.tom);
    for (const command of [`DONE ${id}`, `CALL ${id}`, `SPAM ${id}`]) expect(await reply(SARAH, command)).toBe('handled');
    expect(await calledBack(id)).toBeNull();
    const refusal = `Call ${id} is for someone else in your team, so it was left as it was. Ask the owner to act on it.`;
    expect(textsTo(SARAH)).toEqual([refusal, refusal, refusal]);
    const { spamMarks } = tablesOf(h!.server.database.db);
    expect(await h!.server.database.db.select().from(spamMarks)).toEqual([]);
  });

  it('a member who sees everything may act on any call of the business, and add to the knowledge base', async () => {
    const team = await business({ sarahSees: 'everything' });
    const id = await callFor(team.tom);
    expect(await reply(SARAH, `DONE ${id}`)).toBe('handled');
    expect(await calledBack(id)).toBeInstanceOf(Date);
    expect(await reply(SARAH, 'KB We open at 8.')).toBe('handled');
    expect(textsTo(SARAH)).toContain('There is no unanswered question waiting for an answer.');
  });

  it('KB and AGENT from a member who sees only their own calls are refused', async () => {
    await business();
    expect(await reply(SARAH, 'KB We open at 8.')).toBe('handled');
    expect(await reply(SARAH, 'AGENT OFF')).toBe('handled');
    expect(textsTo(SARAH)).toEqual(expect.arrayContaining([
      'Only the owner, or a team member who can see every call, can add answers to the knowledge base.',
      'Only the owner can switch the AI receptionist on or off.',
    ]));
  });

  it('a phone in the teams of two businesses asks which business, and then acts in the one named', async () => {
    const team = await business();
    const id = await callFor(team.sarah);
    const db = h!.server.database.db;
    const { staff } = tablesOf(db);
    const other = await insertUser(db, { email: 'bright@example.co.uk', passwordHash: 'not-used', accountStatus: 'active', businessName: 'Bright Dental', notificationNumber: '+447700900777' });
    await db.insert(staff).values({ userId: other.id, name: 'Sarah', otherNames: [], phone: SARAH, phoneConfirmedAt: new Date(), view: 'everything', position: 1 });

    expect(await reply(SARAH, `DONE ${id}`)).toBe('asked');
    expect(await calledBack(id)).toBeNull();
    expect(textsTo(SARAH)).toContain(`This number gets call notifications for 2 businesses: Acme Plumbing, Bright Dental. Which one is this for? Send it again starting with the business name and a colon, e.g. "Acme Plumbing: DONE ${id}".`);
    expect(await reply(SARAH, `acme plumbing: DONE ${id}`)).toBe('handled');
    expect(await calledBack(id)).toBeInstanceOf(Date);
  });

  it('a phone that is no one\'s, or a member\'s still waiting for its code, is ignored as before', async () => {
    const team = await business();
    const id = await callFor(team.priya);
    expect(await reply('+447700900999', `DONE ${id}`)).toBe('ignored');
    expect(await reply(PRIYA, `DONE ${id}`)).toBe('ignored');
    expect(await calledBack(id)).toBeNull();
    expect(textsTo('+447700900999')).toEqual([]);
    expect(textsTo(PRIYA)).toEqual([]);
  });
});
