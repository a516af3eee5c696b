// Nuisance screening on a real Asterisk, called by SIPp (issue 43): a recorded-message caller is
// filed as screened and never texted; after three businesses mark a number SPAM, a fourth
// business's call from it is refused before answering (SIPp sees 403, nothing recorded, nothing
// texted), while a business that put the number on its allow list still takes the call. A silent
// caller is missed (nothing recorded: texted to the owner once, as any missed call) or, when the
// line carried sound but no words, filed as screened (silent) and not texted at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { notifications, spamMarks } from '../helpers/tables.js';
import { markNumber } from '../../core/screening/marks.js';
import { setScreenAction } from '../../core/screening/marks.js';
import { REFUSED } from '../../dialogue/spoken/call-lines.js';
import { waitUntil } from '../helpers/wait.js';
import { RATE, envelopeMatch, readWavSamples, speech } from './audio.js';
import { heardGreetingAndBeep, realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';
import { sqliteOf } from '../../core/db/client.js';

const real = realPbxAvailability();
const ROBOCALL = 'You may be entitled to compensation for the accident you had. Press one to speak to an advisor now.';
const NUISANCE = '+447700900666';

/** An open line's hum with no words in it: loud enough for Asterisk to record it as a message. */
function hum(seconds: number): Int16Array {
  const out = new Int16Array(RATE * seconds);
  for (let i = 0; i < out.length; i++) out[i] = Math.round(4000 * Math.sin((2 * Math.PI * 150 * i) / RATE) + 1500 * Math.sin((2 * Math.PI * 370 * i) / RATE));
  return out;
}

describe.skipIf(!real.ok)('nuisance calls screened on a real Asterisk', () => {
  let h: RealPbx;
  beforeAll(async () => {
    h = await startRealPbx({ pipeline: true });
  });
  afterAll(async () => {
    await h?.close();
  });

  const db = () => h.server.database.db;
  const sentFor = async (callId: number) => await db().select().from(notifications).where(eq(notifications.callId, callId));
  const pipelineIdle = () => waitUntil(async () => expect(sqliteOf(h.server.database).prepare("select count(*) n from jobs where status in ('pending','running')").get()).toEqual({ n: 0 }), 30_000);

  it('a recorded-message caller leaves a message: filed as screened, kept, not texted', async () => {
    h.whisper.defaultTranscript = ROBOCALL;
    // The model is fooled; the rules are not.
    h.ollama.replier = () => JSON.stringify({ summary: 'A caller says you may be entitled to compensation.', urgency: 'normal', urgencyReason: '', callClass: 'genuine' });
    const { did } = await h.business({ businessName: 'Dale Electrics', smsEnabled: true, notificationNumber: '+447700900222' });
    const call = await h.call(did, '+447700900661');
    await heardGreetingAndBeep(call);
    await call.media.say(speech(ROBOCALL));
    expect((await call.done).exitCode).toBe(0);
    const row = await h.finishedRow(did);
    await pipelineIdle();
    const stored = (await h.rows(did))[0]!;
    expect(stored).toMatchObject({ id: row.id, status: 'voicemail', callClass: 'recorded', screenedBy: 'summary', transcription: ROBOCALL, recordingFile: `call-${row.id}.wav` });
    expect(await sentFor(row.id)).toEqual([]);
  }, 120_000);

  it('three businesses mark a number SPAM: a fourth business\'s call from it is rejected before answering, an allowing business still takes it', async () => {
    const firms = await Promise.all(['One', 'Two', 'Three', 'Four', 'Five'].map((n) => h.business({ businessName: `Firm ${n}`, smsEnabled: true, notificationNumber: '+447700900222' })));
    const now = new Date();
    for (const f of firms.slice(0, 3)) await markNumber(db(), f.userId, NUISANCE, 'spam', now);
    await markNumber(db(), firms[4]!.userId, NUISANCE, 'allow', now);

    // The fourth business said nothing: the box-wide list screens the number for it.
    const refused = await h.call(firms[3]!.did, '07700900666');
    const seen = await refused.done;
    expect(seen.signalling.map((s) => s.final)).toEqual([403]);
    const row = await h.finishedRow(firms[3]!.did);
    expect(row).toMatchObject({ status: 'missed', screenedBy: 'box', recordingFile: null, duration: 0 });
    await pipelineIdle();
    expect(await sentFor(row.id)).toEqual([]);

    // The fifth put it on its allow list: greeted, recorded, as any caller.
    const allowed = await h.call(firms[4]!.did, NUISANCE);
    await heardGreetingAndBeep(allowed);
    await allowed.hangUp();
    expect((await allowed.done).signalling.map((s) => s.final)).toEqual([200]);
    expect(await h.finishedRow(firms[4]!.did)).toMatchObject({ screenedBy: null });
  }, 180_000);

  it('an owner who chose the message: their spam caller hears the short refusal, no recording, no text', async () => {
    const firm = await h.business({ businessName: 'Firm Six', smsEnabled: true, notificationNumber: '+447700900222' });
    await markNumber(db(), firm.userId, '+447700900667', 'spam', new Date());
    await setScreenAction(db(), firm.userId, 'message');
    const call = await h.call(firm.did, '+447700900667');
    expect((await call.done).exitCode).toBe(0);
    expect(envelopeMatch(readWavSamples(await h.promptFile(REFUSED)), call.media.heard()).score).toBeGreaterThan(0.8);
    const row = await h.finishedRow(firm.did);
    expect(row).toMatchObject({ status: 'missed', screenedBy: 'owner', recordingFile: null });
    await pipelineIdle();
    expect(await sentFor(row.id)).toEqual([]);
  }, 120_000);

  it('a silent caller (SIPp sends only silence) is missed: one row, not classified, texted to the owner exactly once', async () => {
    const firm = await h.business({ businessName: 'Hush Joinery', smsEnabled: true, notificationNumber: '+447700900223' });
    const call = await h.call(firm.did, '+447700900662');
    await heardGreetingAndBeep(call);
    // The caller says nothing: the five-second silence stop ends the recording, Asterisk hangs up.
    expect((await call.done).exitCode).toBe(0);
    const row = await h.finishedRow(firm.did);
    await pipelineIdle();
    const rows = await h.rows(firm.did);
    expect(rows.map((r) => r.id)).toEqual([row.id]);
    // Missed before any message: an ordinary missed call, never classified, so never screened.
    expect(rows[0]).toMatchObject({ status: 'missed', recordingFile: null, callClass: null, screenedBy: null });
    const sent = await sentFor(row.id);
    expect(sent.map((n) => ({ kind: n.kind, to: n.to }))).toEqual([{ kind: 'summary', to: '+447700900223' }]);
  }, 120_000);

  it('a silent dialler\'s open line (sound, no words) is recorded but filed as screened (silent): not texted, and counted nowhere box-wide (issue 53)', async () => {
    h.whisper.defaultTranscript = '[BLANK_AUDIO]';
    // The model is fooled again; the no-speech rule is not.
    h.ollama.replier = () => JSON.stringify({ summary: 'The caller did not say anything.', urgency: 'normal', urgencyReason: '', callClass: 'genuine' });
    const firm = await h.business({ businessName: 'Still Line Roofing', smsEnabled: true, notificationNumber: '+447700900224' });
    const call = await h.call(firm.did, '+447700900663');
    await heardGreetingAndBeep(call);
    await call.media.say(hum(3));
    expect((await call.done).exitCode).toBe(0);
    const row = await h.finishedRow(firm.did);
    await pipelineIdle();
    const rows = await h.rows(firm.did);
    expect(rows.map((r) => r.id)).toEqual([row.id]);
    expect(rows[0]).toMatchObject({ status: 'voicemail', callClass: 'silent', screenedBy: 'summary', transcription: '[BLANK_AUDIO]', recordingFile: `call-${row.id}.wav` });
    expect(await sentFor(row.id)).toEqual([]);
    // Only an owner's SPAM mark counts towards the box-wide list: the classification made none.
    expect(await db().select().from(spamMarks).where(eq(spamMarks.number, '+447700900663'))).toEqual([]);
  }, 120_000);
});
