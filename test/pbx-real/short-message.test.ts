// Issue 47's lost messages, on a real Asterisk 20.17.0 called by SIPp: a short message spoken
// straight after the beep, then quiet until the silence limit, and a caller who talks over the
// greeting and carries on after the beep. Asterisk reports talking in whole seconds, from its
// wall clock and its silence detector, and trims the trailing silence off the file, so a
// message of a second or two can be reported as "talking 0" or "1": each must still be stored
// and texted to the owner, never filed as a missed call.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../helpers/wait.js';
import { envelopeMatch, loudMs, readWavSamples, speech } from './audio.js';
import { heardBeep, realPbxAvailability, startRealPbx, textsSent, type RealPbx } from './harness.js';
import type { SipCall } from './sipp.js';

const real = realPbxAvailability();

const OWNER_MOBILE = '+447700900123';
const SUMMARY = 'Bob asked to be called back.';

describe.skipIf(!real.ok)('short messages on a real Asterisk, called over SIP (issue 47)', { timeout: 180_000 }, () => {
  let h: RealPbx;
  beforeAll(async () => {
    h = await startRealPbx({ pipeline: true });
    h.whisper.defaultTranscript = 'Call me back, it is Bob.';
    h.ollama.replier = () => SUMMARY;
  });
  afterAll(async () => {
    await h?.close();
  });

  const business = (businessName: string) => h.business({ businessName, smsEnabled: true, notificationNumber: OWNER_MOBILE });
  const stored = (file: string) => readWavSamples(path.join(h.server.dataDir, 'recordings', file));

  /** The call is filed as a message with its audio stored, and the owner is texted its summary. */
  async function storedAndTexted(did: string) {
    const row = await h.finishedRow(did, 60_000);
    expect(row).toMatchObject({ status: 'voicemail', recordingFile: `call-${row.id}.wav` });
    const texted = await textsSent(h, row.id);
    expect(texted.filter((t) => t.status === 'sent')).toEqual([expect.objectContaining({ to: OWNER_MOBILE, kind: 'summary', body: expect.stringContaining(SUMMARY) })]);
    return row;
  }

  it('"Call me back, it’s Bob" straight after the beep, then quiet until the silence limit: stored and texted', async () => {
    const { did } = await business('Short Message Glazing');
    const call = await h.call(did);
    await heardBeep(call);
    const words = speech('Call me back, it’s Bob.');
    await call.media.say(words);
    expect((await call.done).exitCode).toBe(0); // silence stop, thank-you, Asterisk hangs up
    const row = await storedAndTexted(did);
    expect(envelopeMatch(words, stored(row.recordingFile!)).score).toBeGreaterThan(0.8);
  });

  it('a caller who talks over the greeting and carries on after the beep: what follows the beep is stored and texted', async () => {
    const { did } = await business('Talk Over Roofing');
    const call = await h.call(did);
    // A second of the greeting, then the caller starts talking and does not stop for it.
    await waitUntil(() => expect(call.media.soundMs()).toBeGreaterThan(1000), 30_000);
    const after = await talkUntilBeepAndBeyond(call, speech('Hello, hello, is anyone there, I need a plumber for a burst pipe in the kitchen.'), 1500);
    expect((await call.done).exitCode).toBe(0);
    const row = await storedAndTexted(did);
    // The file holds what the caller said after the beep (the tail of their words), not silence.
    const kept = stored(row.recordingFile!);
    expect(loudMs(kept)).toBeGreaterThanOrEqual(loudMs(after) / 2);
    expect(envelopeMatch(after, kept).score).toBeGreaterThan(0.8);
  });

  it('a caller who talks over the greeting and stops a moment after the beep: the words after it are stored and texted', async () => {
    // Asterisk keeps the speech and 200 ms of the silence after it: a file under a second, reported
    // as "talking 1" (or 0), which the old rule (a message lasts a second or more) filed as missed.
    const { did } = await business('Brief Tail Fencing');
    const call = await h.call(did);
    await waitUntil(() => expect(call.media.soundMs()).toBeGreaterThan(1000), 30_000);
    // Hellos without pauses, so the moment after the beep is all speech.
    const hellos = speech('Hello hello hello hello hello hello hello hello');
    const after = await talkUntilBeepAndBeyond(call, hellos.subarray(0, hellos.length - 0.25 * 8000), 400);
    expect((await call.done).exitCode).toBe(0);
    const row = await storedAndTexted(did);
    expect(loudMs(stored(row.recordingFile!))).toBeGreaterThanOrEqual(loudMs(after) / 2);
  });
});

/**
 * Speaks `words` over and over in 200 ms pieces, queued back to back so the speech has no gaps,
 * until the beep has been heard, then `afterMs` more of them, and stops. Returns what was queued
 * after the beep was heard (what the recording should hold).
 */
async function talkUntilBeepAndBeyond(call: SipCall, words: Int16Array, afterMs: number): Promise<Int16Array> {
  const piece = 1600; // 200 ms at 8 kHz
  let beepAt: number | undefined;
  let afterSamples = (afterMs / 1000) * 8000;
  let at = 0;
  let pending = Promise.resolve();
  const afterBeep: Int16Array[] = [];
  while (afterSamples > 0) {
    const next = words.subarray(at, at + piece);
    at = at + piece >= words.length ? 0 : at + piece;
    if (beepAt !== undefined) {
      afterSamples -= next.length;
      afterBeep.push(next);
    }
    const sent = call.media.say(next);
    await pending; // one piece always queued behind the one being sent
    pending = sent;
    beepAt ??= call.media.beepEndedAfter();
  }
  await pending;
  const out = new Int16Array(afterBeep.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of afterBeep) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
