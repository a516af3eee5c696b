// Urgency from the summary step and the repeat-caller alert, end to end: the real pipeline,
// the real Ollama client against the Ollama double scripted to each answer, texts through the
// real twilio SDK to the Twilio double.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SUMMARY_SCHEMA } from '../../dialogue/summary/summary.js';
import { audioKey } from '../doubles/whisper/server.js';
import { speakToWav } from './audio.js';
import { CALLER, startHarness, type Harness } from './harness.js';
import { useEngineDoubles } from '../helpers/engine-doubles.js';

const SPOKEN = "It's Dan at 4 Mill Lane. Water is coming through the kitchen ceiling, please come now.";
const reply = (summary: string, urgency: string, urgencyReason: string) => JSON.stringify({ summary, urgency, urgencyReason });

const engines = useEngineDoubles();
let dir: string;
let wav: string;
let h: Harness | undefined;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'urgency-'));
  wav = speakToWav(dir, 'dan', SPOKEN);
  engines.whisper.transcripts.set(await audioKey(wav), SPOKEN);
});
afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const env = () => engines.env();
const waitForJob = (callId: number) => vi.waitFor(async () => expect((await h!.jobOf(callId))?.status).toBe('done'), { timeout: 15_000, interval: 20 });

describe('urgency in every summary', () => {
  it('an urgent call: the text starts with URGENT and the urgency and its reason are stored on the call', async () => {
    engines.ollama.replier = () => reply('Dan at 4 Mill Lane has water coming through the kitchen ceiling and asks you to come now.', 'urgent', 'water coming through the ceiling');
    h = await startHarness({ env: env() });
    const id = await h.finishedCall({ recording: wav });
    h.fireCallFinished(id);
    await waitForJob(id);

    expect(h.twilio.messages.map((m) => m.body)).toEqual([
      expect.stringMatching(new RegExp(`^URGENT: New voicemail from \\${CALLER} at \\d\\d:\\d\\d: Dan at 4 Mill Lane has water coming through`)),
    ]);
    expect(await h.call(id)).toMatchObject({
      urgency: 'urgent',
      urgencyReason: 'water coming through the ceiling',
      aiSummary: 'Dan at 4 Mill Lane has water coming through the kitchen ceiling and asks you to come now.',
    });
    // The model was asked for the structured reply through Ollama's `format`.
    expect(engines.ollama.requests[0]!.body.format).toEqual(SUMMARY_SCHEMA);
  });

  it('a normal call: the text does not say URGENT, even when the model wrote it into the summary', async () => {
    engines.ollama.replier = () => reply('URGENT: Dan would like a quote for a new kitchen tap.', 'normal', 'wants a quote');
    h = await startHarness({ env: env() });
    const id = await h.finishedCall({ recording: wav });
    h.fireCallFinished(id);
    await waitForJob(id);
    expect(h.twilio.messages.map((m) => m.body)).toEqual([expect.stringMatching(/^New voicemail from .*: Dan would like a quote for a new kitchen tap\. Reply DONE \d+ when called back\.$/)]);
    expect(await h.call(id)).toMatchObject({ urgency: 'normal', urgencyReason: 'wants a quote' });
  });

  it('a low-urgency call is stored as low and texted like any other', async () => {
    engines.ollama.replier = () => reply('A caller is selling advertising space.', 'low', 'sales call');
    h = await startHarness({ env: env() });
    const id = await h.finishedCall({ recording: wav });
    h.fireCallFinished(id);
    await waitForJob(id);
    expect(h.twilio.messages.map((m) => m.body)).toEqual([expect.stringMatching(/^New voicemail from .*: A caller is selling advertising space\. Reply DONE \d+ when called back\.$/)]);
    expect(await h.call(id)).toMatchObject({ urgency: 'low', urgencyReason: 'sales call' });
  });

  it('a model answering prose instead of the JSON asked for: normal urgency, and the summary is still texted', async () => {
    engines.ollama.replier = () => 'Dan says water is coming through his kitchen ceiling.';
    h = await startHarness({ env: env() });
    const id = await h.finishedCall({ recording: wav });
    h.fireCallFinished(id);
    await waitForJob(id);
    expect(h.twilio.messages.map((m) => m.body)).toEqual([expect.stringMatching(/^New voicemail from .*: Dan says water is coming through his kitchen ceiling\. Reply DONE \d+ when called back\.$/)]);
    expect(await h.call(id)).toMatchObject({ urgency: 'normal', urgencyReason: null, summaryStatus: 'done' });
  });

  it('a model answering an urgency outside the three values: normal urgency, summary still texted', async () => {
    engines.ollama.replier = () => reply('Dan has a leak in his kitchen ceiling.', 'EXTREMELY!!', 'leak');
    h = await startHarness({ env: env() });
    const id = await h.finishedCall({ recording: wav });
    h.fireCallFinished(id);
    await waitForJob(id);
    expect(h.twilio.messages.map((m) => m.body)).toEqual([expect.stringMatching(/^New voicemail from .*: Dan has a leak in his kitchen ceiling\. Reply DONE \d+ when called back\.$/)]);
    expect(await h.call(id)).toMatchObject({ urgency: 'normal' });
  });
});

describe('repeat caller', () => {
  const t0 = Date.parse('2026-11-20T10:00:00Z');
  const missedAt = async (minutes: number) => {
    const id = await h!.finishedCall({ status: 'missed', createdAt: new Date(t0 + minutes * 60_000) });
    h!.fireCallFinished(id);
    return id;
  };
  const alerts = () => h!.twilio.messages.filter((m) => m.body.includes('times in'));

  it('a third call within 20 minutes texts "called 3 times in 20 minutes" at once, and only once', async () => {
    h = await startHarness({ env: env() });
    const ids = [await missedAt(0), await missedAt(7)];
    for (const id of ids) await waitForJob(id);
    expect(alerts()).toHaveLength(0);

    const third = await missedAt(19);
    await waitForJob(third);
    expect(alerts().map((m) => m.body)).toEqual([`${CALLER} has called 3 times in 20 minutes (latest at 10:19). They may need you urgently.`]);
    expect((await h.call(third)).repeatAlert).toBe(true);
    // The alert goes before the third call's own text.
    expect(h.twilio.messages.slice(2).map((m) => m.body)).toEqual([alerts()[0]!.body, expect.stringMatching(/^Missed call/)]);

    const fourth = await missedAt(22);
    await waitForJob(fourth);
    expect(alerts()).toHaveLength(1);
    expect(h.twilio.messages.filter((m) => m.body.startsWith('Missed call'))).toHaveLength(4);
    // The alert is its own notification row, apart from the call's summary text.
    expect((await h.attempts(third)).map((a) => a.kind).sort()).toEqual(['repeat-caller', 'summary']);
    expect((await h.call(third)).notificationSent).toBe(true);
  });

  it("the alert does not wait for the third call's summary while Whisper is down", async () => {
    engines.whisper.alwaysFail = { status: 503 };
    try {
      h = await startHarness({ env: env(), options: { notifyAnywayFromAttempt: 100, maxAttempts: 100 } });
      await waitForJob(await missedAt(0));
      await waitForJob(await missedAt(5));
      const third = await h.finishedCall({ recording: wav, createdAt: new Date(t0 + 9 * 60_000) });
      h.fireCallFinished(third);
      await vi.waitFor(() => expect(alerts()).toHaveLength(1), { timeout: 15_000, interval: 20 });
      expect(await h.call(third)).toMatchObject({ transcriptionStatus: 'pending', notificationSent: false });
      expect(h.twilio.messages.filter((m) => m.body.startsWith('New voicemail'))).toHaveLength(0);
    } finally {
      engines.whisper.alwaysFail = null;
    }
  });

  it('three calls spread over more than 20 minutes send no alert', async () => {
    h = await startHarness({ env: env() });
    for (const id of [await missedAt(0), await missedAt(15), await missedAt(30)]) await waitForJob(id);
    expect(h.twilio.messages.filter((m) => m.body.startsWith('Missed call'))).toHaveLength(3);
    expect(alerts()).toHaveLength(0);
  });

  it('follows a configured rule (2 calls in 5 minutes)', async () => {
    h = await startHarness({ env: env(), options: { repeatCaller: { calls: 2, windowMinutes: 5 } } });
    await waitForJob(await missedAt(0));
    await waitForJob(await missedAt(4));
    expect(alerts().map((m) => m.body)).toEqual([`${CALLER} has called 2 times in 5 minutes (latest at 10:04). They may need you urgently.`]);
  });
});
