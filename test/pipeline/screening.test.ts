// Nuisance screening in the post-call pipeline (issue 43): the summary double answers each class
// of call, the rules overrule it on a recorded message and on silence, and a screened call is
// stored with its class, kept for the owner to open, and never texted to them. Issue 53: the
// classification protects only the business that heard the call; it never lists the number
// box-wide, so a spoofed caller ID cannot get a customer refused everywhere.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { audioKey } from '../doubles/whisper/server.js';
import { speakToWav } from './audio.js';
import { CALLER, DID, startHarness, type Harness } from './harness.js';
import { insertUser } from '../../core/accounts/users.js';
import { screenBeforeAnswer } from '../../core/screening/lookup.js';
import { phoneNumbers } from '../helpers/tables.js';
import { useEngineDoubles } from '../helpers/engine-doubles.js';

const CUSTOMER = 'Hi, it is Dan at 4 Mill Lane, could you quote for a new kitchen tap? Call me back please.';
const ROBOCALL = 'You may be entitled to compensation for the accident you had. Press one to speak to an advisor now.';
const reply = (summary: string, callClass: string, urgency = 'low') => JSON.stringify({ summary, urgency, urgencyReason: '', callClass });

const engines = useEngineDoubles();
let dir: string;
let customer: string;
let robocall: string;
let silence: string;
let h: Harness | undefined;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'screening-'));
  customer = speakToWav(dir, 'customer', CUSTOMER);
  robocall = speakToWav(dir, 'robocall', ROBOCALL);
  silence = speakToWav(dir, 'silence', 'Mm.');
  engines.whisper.transcripts.set(await audioKey(customer), CUSTOMER);
  engines.whisper.transcripts.set(await audioKey(robocall), ROBOCALL);
  engines.whisper.transcripts.set(await audioKey(silence), '');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const waitForJob = (callId: number) => vi.waitFor(async () => expect((await h!.jobOf(callId))?.status).toBe('done'), { timeout: 15_000, interval: 20 });

async function oneCall(recording: string): Promise<number> {
  h = await startHarness({ env: engines.env() });
  const id = await h.finishedCall({ recording });
  h.fireCallFinished(id);
  await waitForJob(id);
  return id;
}

// Generous: on PostgreSQL on a loaded 2-core machine a fresh server and database take a while.
describe('each call classified by the summary', { timeout: 90_000 }, () => {
  it('a genuine call is classed genuine and texted as before', async () => {
    engines.ollama.replier = () => reply('Dan at 4 Mill Lane wants a quote for a kitchen tap.', 'genuine', 'normal');
    const id = await oneCall(customer);
    expect(await h!.call(id)).toMatchObject({ callClass: 'genuine', screenedBy: null, notificationSent: true });
    expect(h!.twilio.messages).toHaveLength(1);
  });

  for (const [cls, summary] of [
    ['sales', 'A caller from Sunny Solar is selling roof panels.'],
    ['wrong-number', 'The caller wanted someone called Dave and rang the wrong number.'],
  ] as const) {
    it(`a call the model calls ${cls} is screened: kept with its summary, not texted`, async () => {
      engines.ollama.replier = () => reply(summary, cls);
      const id = await oneCall(customer);
      expect(await h!.call(id)).toMatchObject({ callClass: cls, screenedBy: 'summary', aiSummary: summary, notificationSent: false });
      expect(h!.twilio.messages).toEqual([]);
      expect(await h!.attempts(id)).toEqual([]);
    });
  }

  it('a recorded message is screened by the rules even when the model calls it genuine', async () => {
    engines.ollama.replier = () => reply('A caller says you may be entitled to compensation.', 'genuine', 'normal');
    const id = await oneCall(robocall);
    expect(await h!.call(id)).toMatchObject({ callClass: 'recorded', screenedBy: 'summary', transcription: ROBOCALL });
    expect(h!.twilio.messages).toEqual([]);
  });

  it('a recording with no speech is screened as silent without asking the model', async () => {
    const id = await oneCall(silence);
    expect(await h!.call(id)).toMatchObject({ callClass: 'silent', screenedBy: 'summary', summaryStatus: 'done' });
    expect(engines.ollama.requests).toEqual([]);
    expect(h!.twilio.messages).toEqual([]);
  });

  it('an urgent call is never screened, whatever class the model gives it', async () => {
    engines.ollama.replier = () => reply('Dan says water is pouring through his ceiling.', 'sales', 'urgent');
    const id = await oneCall(customer);
    expect(await h!.call(id)).toMatchObject({ callClass: 'genuine', screenedBy: null, urgency: 'urgent' });
    expect(h!.twilio.messages).toHaveLength(1);
  });
});

describe('a spoofed caller ID (issue 53)', { timeout: 120_000 }, () => {
  it('three robocalls classified at three businesses screen nothing box-wide: a fourth business still takes the number', async () => {
    engines.ollama.replier = () => reply('A recorded message about compensation.', 'recorded');
    h = await startHarness({ env: engines.env() });
    const db = h.server.database.db;
    const firms = [{ id: h.ownerId, did: DID }];
    for (const i of [2, 3, 4]) {
      const u = await insertUser(db, { email: `firm${i}@example.co.uk`, passwordHash: 'not-used', accountStatus: 'active', businessName: `Firm ${i}` });
      const did = `+44113496010${i}`;
      await db.insert(phoneNumbers).values({ phoneNumber: did, provider: 'static', providerSid: did, userId: u.id, assignedAt: new Date() });
      firms.push({ id: u.id, did });
    }
    for (const f of firms.slice(0, 3)) {
      const id = await h.finishedCall({ recording: robocall, userId: f.id, toNumber: f.did });
      h.fireCallFinished(id);
      await waitForJob(id);
      expect(await h.call(id)).toMatchObject({ callClass: 'recorded', screenedBy: 'summary', notificationSent: false });
    }
    expect(await screenBeforeAnswer(db, firms[3]!.did, CALLER, h.server.services.now())).toEqual({ screen: false });
  });
});
