import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { createOllamaLanguageModel } from '../../models/llm/ollama.js';
import { audioKey } from '../doubles/whisper/server.js';
import { summaryInAskedLanguage } from '../doubles/ollama/summary-replier.js';
import { speakToWav } from './audio.js';
import { CALLER, DID, OWNER_MOBILE, startHarness, type Harness } from './harness.js';
import { useEngineDoubles } from '../helpers/engine-doubles.js';
import { bookings, bookingServices, calls } from '../helpers/tables.js';

const SPOKEN = "Hi, it's Sarah Jones. My boiler has stopped and I need someone today. Please call me back on 07700 900456.";
const SUMMARY = 'URGENT: Sarah Jones says her boiler has stopped and needs someone today; call back on 07700 900456.';

const engines = useEngineDoubles({ summary: SUMMARY });
let dir: string;
let wav: string;
let h: Harness;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'post-call-'));
  wav = speakToWav(dir, 'sarah', SPOKEN);
  engines.whisper.transcripts.set(await audioKey(wav), SPOKEN);
});
afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await h?.close();
});

const engineEnv = () => engines.env();
const waitForJob = (callId: number, status: 'done' | 'failed') =>
  vi.waitFor(async () => expect((await h.jobOf(callId))?.status).toBe(status), { timeout: 15_000, interval: 20 });

describe('post-call pipeline: from a finished call to one text', () => {
  it('transcribes, summarises and texts the owner once from the business number', async () => {
    h = await startHarness({ env: engineEnv() });
    const id = await h.finishedCall({ recording: wav });
    h.fireCallFinished(id);
    h.fireCallFinished(id); // a repeated hook must not make a second job or text
    await waitForJob(id, 'done');

    expect(await h.call(id)).toMatchObject({
      transcription: SPOKEN,
      transcriptionStatus: 'done',
      aiSummary: SUMMARY,
      summaryStatus: 'done',
      notificationSent: true,
      notificationError: null,
    });
    expect(h.twilio.messages).toHaveLength(1);
    expect(h.twilio.messages[0]).toMatchObject({ to: OWNER_MOBILE, from: DID });
    expect(h.twilio.messages[0]!.body).toMatch(new RegExp(`^New voicemail from \\${CALLER} at \\d\\d:\\d\\d: URGENT: Sarah Jones`));
    expect(await h.attempts(id)).toMatchObject([{ channel: 'sms', to: OWNER_MOBILE, status: 'sent', providerId: h.twilio.messages[0]!.sid }]);
    // The model saw the transcript, fenced, with the caller ID and the business.
    expect(engines.ollama.requests).toHaveLength(1);
    expect(JSON.stringify(engines.ollama.requests[0]!.body.messages)).toContain('07700 900456');
    expect(engines.ollama.requests[0]!.body.messages[0].content).toContain('Acme Plumbing');
    // The owner allows other languages (the default), so whisper is asked which one it is (issue 42).
    expect(engines.whisper.requests[0]!.fields).toMatchObject({ language: 'auto', response_format: 'verbose_json' });
    expect((await h.call(id)).callerLanguage).toBeNull();
  });

  it('a voicemail in Polish is transcribed as Polish and summarised in English naming the language (issue 42)', async () => {
    engines.whisper.languageOf = () => ({ language: 'pl', probability: 0.94 });
    try {
      h = await startHarness({ env: engineEnv() });
      const id = await h.finishedCall({ recording: wav });
      h.fireCallFinished(id);
      await waitForJob(id, 'done');
      expect(await h.call(id)).toMatchObject({ callerLanguage: 'pl', summaryStatus: 'done' });
      // The summary is asked for first; the transcript's translation follows the text.
      expect(engines.ollama.requests[0]!.body.messages[0].content).toContain('The caller spoke Polish. Write the summary in English');
    } finally {
      engines.whisper.languageOf = () => ({ language: 'en', probability: 0.97 });
    }
  });

  it('an owner who allows English only gets an English transcription, as before', async () => {
    h = await startHarness({ env: engineEnv(), owner: { agentLanguages: 'en' } });
    const before = engines.whisper.requests.length;
    const id = await h.finishedCall({ recording: wav });
    h.fireCallFinished(id);
    await waitForJob(id, 'done');
    expect(engines.whisper.requests[before]!.fields).toMatchObject({ language: 'en', response_format: 'json' });
  });

  it('a Polish voicemail to an owner who allows English only: the owner\'s text has the summary in English (issue 53)', async () => {
    const polishWav = speakToWav(dir, 'polish', 'Dzień dobry, nazywam się Anna Nowak. Proszę oddzwonić w sprawie przecieku.');
    engines.whisper.transcripts.set(await audioKey(polishWav), 'Dzień dobry, nazywam się Anna Nowak. Proszę oddzwonić w sprawie przecieku.');
    const english = 'Anna Nowak asked for a call back about a leak.';
    const polish = 'Anna Nowak prosi o oddzwonienie w sprawie przecieku.';
    engines.ollama.replier = summaryInAskedLanguage({ English: english, Polish: polish });
    h = await startHarness({ env: engineEnv(), owner: { agentLanguages: 'en' } });
    const id = await h.finishedCall({ recording: polishWav });
    h.fireCallFinished(id);
    await waitForJob(id, 'done');
    expect(await h.call(id)).toMatchObject({ callerLanguage: null, aiSummary: english });
    expect(h.twilio.messages.map((m) => m.body)).toEqual([expect.stringContaining(english)]);
  });

  it('an agent call that booked a time: the owner’s text says what was booked (issue 41), a cancelled booking is not said', async () => {
    h = await startHarness({ env: engineEnv() });
    const db = h.server.database.db;
    const [service] = await db.insert(bookingServices).values({ userId: h.ownerId, name: 'Boiler service', durationMinutes: 60 }).returning({ id: bookingServices.id });
    // Thursday 3 December 2026, 10:00 in London (GMT).
    const start = new Date('2026-12-03T10:00:00Z');
    const bookingBy = (callId: number, status: 'booked' | 'cancelled') => ({
      userId: h.ownerId, serviceId: service!.id, startAt: start, endAt: new Date(start.getTime() + 3_600_000), blockEndAt: new Date(start.getTime() + 3_600_000),
      callerName: 'Sarah Jones', callerNumber: CALLER, callId, slotKey: `${service!.id}:${start.getTime()}:${callId}`, status,
    });
    const booked = await h.finishedCall({ status: 'answered', mode: 'agent', recording: wav });
    await db.insert(bookings).values(bookingBy(booked, 'booked'));
    h.fireCallFinished(booked);
    await waitForJob(booked, 'done');
    expect(h.twilio.messages.at(-1)!.body).toMatch(/^Call answered by your AI receptionist from .*: URGENT: Sarah Jones.* Booked: Boiler service, Thu 3 Dec, 10:00\. Reply DONE \d+/);

    const cancelled = await h.finishedCall({ status: 'answered', mode: 'agent', recording: wav });
    await db.insert(bookings).values({ ...bookingBy(cancelled, 'cancelled'), startAt: new Date(start.getTime() + 7_200_000), endAt: new Date(start.getTime() + 10_800_000), blockEndAt: new Date(start.getTime() + 10_800_000) });
    h.fireCallFinished(cancelled);
    await waitForJob(cancelled, 'done');
    expect(h.twilio.messages).toHaveLength(2);
    expect(h.twilio.messages.at(-1)!.body).not.toContain('Booked');
  });

  it('a voicemail whose caller wanted a booking is stored as wanting one (Call Details offers "Book this caller", issue 41 item 8); one that did not is not', async () => {
    const WANTS = 'Sarah Jones would like to book a boiler service next week; call back on 07700 900456.';
    engines.ollama.replier = () => JSON.stringify({ summary: WANTS, urgency: 'normal', urgencyReason: '', callClass: 'genuine', wantsBooking: true });
    try {
      h = await startHarness({ env: engineEnv() });
      const wanted = await h.finishedCall({ recording: wav });
      h.fireCallFinished(wanted);
      await waitForJob(wanted, 'done');
      expect(await h.call(wanted)).toMatchObject({ mode: 'voicemail', aiSummary: WANTS, summaryStatus: 'done', wantsBooking: true });
      const PLAIN = 'Sarah Jones asks about last month’s invoice; call back on 07700 900456.';
      engines.ollama.replier = () => JSON.stringify({ summary: PLAIN, urgency: 'normal', urgencyReason: '', callClass: 'genuine', wantsBooking: false });
      const plain = await h.finishedCall({ recording: wav });
      h.fireCallFinished(plain);
      await waitForJob(plain, 'done');
      expect(await h.call(plain)).toMatchObject({ aiSummary: PLAIN, wantsBooking: false });
    } finally {
      engines.ollama.replier = () => SUMMARY;
    }
  });

  it('texts "Missed call" for a call without a message, calling neither engine', async () => {
    h = await startHarness({ env: engineEnv() });
    const id = await h.finishedCall({ status: 'missed' });
    h.fireCallFinished(id);
    await waitForJob(id, 'done');
    expect(h.twilio.messages.map((m) => m.body)).toEqual([expect.stringMatching(new RegExp(`^Missed call from \\+447700900123 at \\d\\d:\\d\\d\\. No message was left\\. Reply DONE ${id} when called back\\.$`))]);
    expect(await h.call(id)).toMatchObject({ transcriptionStatus: 'none', summaryStatus: 'none', notificationSent: true });
    expect(engines.whisper.requests).toHaveLength(0);
    expect(engines.ollama.requests).toHaveLength(0);
  });

  it('sends WhatsApp as whatsapp:+44… alongside SMS when both are on, once each', async () => {
    h = await startHarness({ env: engineEnv(), owner: { whatsappEnabled: true } });
    const id = await h.finishedCall({ status: 'missed' });
    h.fireCallFinished(id);
    await waitForJob(id, 'done');
    expect(h.twilio.messages.map((m) => [m.to, m.from])).toEqual([
      [OWNER_MOBILE, DID],
      [`whatsapp:${OWNER_MOBILE}`, `whatsapp:${DID}`],
    ]);
  });

  it('writes the text to the outbox folder when Twilio is not configured', async () => {
    h = await startHarness({ env: { ...engineEnv(), TWILIO_ACCOUNT_SID: '', TWILIO_AUTH_TOKEN: '', TWILIO_API_BASE: '' } });
    const id = await h.finishedCall({ recording: wav });
    h.fireCallFinished(id);
    await waitForJob(id, 'done');
    const outbox = path.join(h.server.dataDir, 'outbox', 'sms');
    const files = fs.readdirSync(outbox);
    expect(files).toEqual([`call-${id}-sms.json`]);
    const written = JSON.parse(fs.readFileSync(path.join(outbox, files[0]!), 'utf8'));
    expect(written).toMatchObject({ channel: 'sms', to: OWNER_MOBILE, from: DID });
    expect(written.body).toContain(SUMMARY);
    expect((await h.call(id)).notificationSent).toBe(true);
    expect(h.twilio.requests).toHaveLength(0);
  });
});

describe('post-call pipeline: the English beside a caller’s own language (issue 42)', () => {
  const POLISH = 'Dzień dobry, mówi Marta Nowak. Cieknie mi kran w kuchni. Proszę oddzwonić na 07700 900456.';
  const ENGLISH = 'Good morning, this is Marta Nowak. My kitchen tap is leaking. Please call me back on 07700 900456.';
  const isTranslation = (r: { body: Record<string, any> }) => String(r.body.messages[0].content).startsWith('Translate this phone call');
  let polishWav: string;

  beforeAll(async () => {
    polishWav = speakToWav(dir, 'marta', POLISH);
    engines.whisper.transcripts.set(await audioKey(polishWav), POLISH);
  });
  beforeEach(() => {
    engines.ollama.replier = (r) => (isTranslation(r) ? ENGLISH : SUMMARY);
    engines.whisper.languageOf = () => ({ language: 'pl', probability: 0.94 });
  });
  afterEach(() => {
    engines.ollama.replier = () => SUMMARY;
    engines.whisper.languageOf = () => ({ language: 'en', probability: 0.97 });
  });

  it('a Polish voicemail keeps its Polish transcript and gets its English translation stored beside it', async () => {
    h = await startHarness({ env: engineEnv() });
    const id = await h.finishedCall({ recording: polishWav });
    h.fireCallFinished(id);
    await waitForJob(id, 'done');
    expect(await h.call(id)).toMatchObject({ callerLanguage: 'pl', transcription: POLISH, transcriptEnglish: ENGLISH, aiSummary: SUMMARY });
    const asked = engines.ollama.requests.filter(isTranslation);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.body.messages[0].content).toContain('from Polish into plain UK English');
    expect(asked[0]!.body.messages[1].content).toBe(POLISH);
    expect(h.twilio.messages).toHaveLength(1);
  });

  it('an agent call in Polish is translated as a dialogue, its Caller and Agent lines kept', async () => {
    const dialogue = `Agent: Hello, Acme Plumbing, how can I help?\nCaller: ${POLISH}\nAgent: Dobrze, przekażę wiadomość.`;
    const english = `Agent: Hello, Acme Plumbing, how can I help?\nCaller: ${ENGLISH}\nAgent: All right, I will pass the message on.`;
    engines.ollama.replier = (r) => (isTranslation(r) ? english : SUMMARY);
    h = await startHarness({ env: engineEnv() });
    const id = await h.finishedCall({ status: 'answered', mode: 'agent', recording: wav });
    await h.server.database.db.update(calls).set({ transcription: dialogue, transcriptionStatus: 'done', callerLanguage: 'pl', callerVoice: 'espeak-ng:pl+f3' }).where(eq(calls.id, id));
    h.fireCallFinished(id);
    await waitForJob(id, 'done');
    expect(await h.call(id)).toMatchObject({ transcription: dialogue, transcriptEnglish: english });
    const asked = engines.ollama.requests.filter(isTranslation);
    expect(asked.map((r) => r.body.messages[1].content)).toEqual([dialogue]);
    expect(asked[0]!.body.messages[0].content).toContain('Keep the "Caller:" or "Agent:" at the start of a line');
  });

  it('the model failing to translate does not hold the owner’s text back; the job retries and stores the English', async () => {
    h = await startHarness({ env: engineEnv() });
    // The first request (the summary) answers; the second (the translation) fails once.
    engines.ollama.script = [{}, { status: 503, error: 'server busy' }];
    const id = await h.finishedCall({ recording: polishWav });
    h.fireCallFinished(id);
    await waitForJob(id, 'done');
    expect(await h.call(id)).toMatchObject({ transcriptEnglish: ENGLISH, aiSummary: SUMMARY, notificationSent: true });
    expect((await h.jobOf(id)).attempts).toBe(2);
    expect(engines.ollama.requests.filter(isTranslation)).toHaveLength(2);
    expect(h.twilio.messages).toHaveLength(1);
  });

  it('an English call is not translated', async () => {
    engines.whisper.languageOf = () => ({ language: 'en', probability: 0.97 });
    h = await startHarness({ env: engineEnv() });
    const id = await h.finishedCall({ recording: wav });
    h.fireCallFinished(id);
    await waitForJob(id, 'done');
    expect(await h.call(id)).toMatchObject({ callerLanguage: null, transcriptEnglish: null, summaryStatus: 'done' });
    expect(engines.ollama.requests.filter(isTranslation)).toHaveLength(0);
  });
});

describe('post-call pipeline: engine failures', () => {
  it('Whisper down: texts "summary follows" once retries run out, then fills the call in without a second text', async () => {
    engines.whisper.alwaysFail = { drop: true };
    h = await startHarness({ env: engineEnv() });
    const id = await h.finishedCall({ recording: wav });
    h.fireCallFinished(id);
    await vi.waitFor(() => expect(h.twilio.messages).toHaveLength(1), { timeout: 15_000, interval: 20 });
    expect(h.twilio.messages[0]!.body).toMatch(/New voicemail from \+447700900123 at \d\d:\d\d\. The transcript and summary will follow in your call log\. Reply DONE \d+ when called back\.$/);
    // The row says so once the provider's answer is back (the double has the text a moment before).
    await vi.waitFor(async () => expect(await h.call(id)).toMatchObject({ transcriptionStatus: 'pending', summaryStatus: 'pending', notificationSent: true }));
    // The attempt records its error just after the text goes out.
    await vi.waitFor(async () => expect((await h.jobOf(id)).lastError).toMatch(/Whisper is unreachable/));

    engines.whisper.alwaysFail = null; // the engine comes back
    await waitForJob(id, 'done');
    expect(await h.call(id)).toMatchObject({ transcription: SPOKEN, aiSummary: SUMMARY, summaryStatus: 'done', notificationSent: true });
    expect(h.twilio.messages).toHaveLength(1);
    expect(await h.attempts(id)).toHaveLength(1);
  });

  it('Ollama timing out: texts the transcript, then stores the summary when Ollama answers', async () => {
    engines.ollama.always = { delayMs: 2_000 };
    const llm = createOllamaLanguageModel({ host: engines.ollama.url, model: 'llama3.2:3b', timeoutMs: 100 });
    h = await startHarness({ env: engineEnv(), engines: { llm } });
    const id = await h.finishedCall({ recording: wav });
    h.fireCallFinished(id);
    await vi.waitFor(() => expect(h.twilio.messages).toHaveLength(1), { timeout: 15_000, interval: 20 });
    expect(h.twilio.messages[0]!.body).toContain(`Message: "${SPOKEN}"`);
    expect(await h.call(id)).toMatchObject({ transcriptionStatus: 'done', summaryStatus: 'pending', aiSummary: null });
    await vi.waitFor(async () => expect((await h.jobOf(id)).lastError).toContain('Ollama did not answer within 100 ms'));

    engines.ollama.always = null;
    await waitForJob(id, 'done');
    expect(await h.call(id)).toMatchObject({ aiSummary: SUMMARY, summaryStatus: 'done' });
    expect(h.twilio.messages).toHaveLength(1);
    // Whisper was asked once: a done step is never repeated.
    expect(engines.whisper.requests).toHaveLength(1);
  });

  it('engines down past the last attempt: statuses failed, error kept, the owner still texted once', async () => {
    engines.whisper.alwaysFail = { status: 500, body: { error: 'out of memory' } };
    h = await startHarness({ env: engineEnv(), options: { maxAttempts: 4 } });
    const id = await h.finishedCall({ recording: wav });
    h.fireCallFinished(id);
    await waitForJob(id, 'failed');
    const job = await h.jobOf(id);
    expect(job).toMatchObject({ attempts: 4, lastError: 'Whisper answered 500: out of memory' });
    expect(await h.call(id)).toMatchObject({ transcriptionStatus: 'failed', summaryStatus: 'failed', notificationSent: true, recordingFile: `call-${id}.wav` });
    expect(fs.existsSync(path.join(h.server.dataDir, 'recordings', `call-${id}.wav`))).toBe(true);
    expect(h.twilio.messages).toHaveLength(1);
  });

  it('a summary that cites a number nobody said is not stored or sent; the transcript goes instead', async () => {
    engines.ollama.replier = () => 'Sarah wants a call on 07700 900999.';
    h = await startHarness({ env: engineEnv() });
    const id = await h.finishedCall({ recording: wav });
    h.fireCallFinished(id);
    await waitForJob(id, 'done');
    expect(await h.call(id)).toMatchObject({ summaryStatus: 'failed', aiSummary: null, transcriptionStatus: 'done' });
    expect(h.twilio.messages).toHaveLength(1);
    expect(h.twilio.messages[0]!.body).toContain('Message: "Hi, it');
    expect(h.twilio.messages[0]!.body).not.toContain('900999');
  });
});

describe('post-call pipeline: delivery failures', () => {
  it('Twilio 500 then OK: retried, both attempts stored, one text delivered', async () => {
    h = await startHarness({ env: engineEnv() });
    h.twilio.failNext('Messages', { status: 500 });
    const id = await h.finishedCall({ status: 'missed' });
    h.fireCallFinished(id);
    await waitForJob(id, 'done');
    expect(h.twilio.requestsTo('Messages').map((r) => r.status)).toEqual([500, 201]);
    expect(h.twilio.messages).toHaveLength(1);
    expect((await h.attempts(id)).map((a) => [a.status, a.error === null])).toEqual([
      ['failed', false],
      ['sent', true],
    ]);
    expect(await h.call(id)).toMatchObject({ notificationSent: true });
    expect((await h.jobOf(id)).attempts).toBe(2);
  });

  it('Twilio 400 21211 (bad number): reported on the call, not retried', async () => {
    h = await startHarness({ env: engineEnv(), twilio: { invalidNumbers: [OWNER_MOBILE] } });
    const id = await h.finishedCall({ status: 'missed' });
    h.fireCallFinished(id);
    await waitForJob(id, 'done');
    expect(h.twilio.requestsTo('Messages')).toHaveLength(1);
    expect(await h.call(id)).toMatchObject({
      notificationSent: false,
      notificationError: 'SMS: the notification number is not a valid phone number (Twilio 21211)',
    });
    expect(await h.attempts(id)).toMatchObject([{ status: 'failed', error: 'the notification number is not a valid phone number (Twilio 21211)' }]);
  });

  it('no notification number anywhere: reported on the call, nothing sent', async () => {
    h = await startHarness({ env: engineEnv(), owner: { notificationNumber: null, phoneNumber: null } });
    const id = await h.finishedCall({ status: 'missed' });
    h.fireCallFinished(id);
    await waitForJob(id, 'done');
    expect(h.twilio.requests).toHaveLength(0);
    expect(await h.call(id)).toMatchObject({ notificationSent: false, notificationError: 'No notification number is set: add one under Notification Settings.' });
  });

  it('a network failure on send is retried without losing the text', async () => {
    h = await startHarness({ env: engineEnv() });
    h.twilio.failNext('Messages', { status: 0, drop: true });
    const id = await h.finishedCall({ status: 'missed' });
    h.fireCallFinished(id);
    await waitForJob(id, 'done');
    expect(h.twilio.messages).toHaveLength(1);
    expect((await h.call(id)).notificationSent).toBe(true);
  });
});
