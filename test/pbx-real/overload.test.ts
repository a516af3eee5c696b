// One node under overload, on a real Asterisk: requests Asterisk carries out but answers too
// late (what a loaded box does: in a burst of 100 callers at load 16, 62 record requests and 3
// answers outlived the core's 5 s request timeout, and those callers' messages were lost).
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startAriTap, type TapEntry } from './ari-tap.js';
import { envelopeMatch, readWavSamples, speech } from './audio.js';
import { heardGreetingAndBeep, realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';

const real = realPbxAvailability();
const MESSAGE = 'Hello, this is Priya from the bakery on Mill Lane. Our fridge has stopped working, please ring me back today.';

/** A core behind a tap that gets the beep's end only once the caller has finished speaking. */
async function lateBeepEnd(spoken: Promise<unknown>): Promise<RealPbx> {
  return startRealPbx({
    ariVia: async (url) => {
      const tap = await startAriTap(url, { holdEvent: (e) => (e.type === 'PlaybackFinished' && e.playback?.media_uri === 'sound:beep' ? spoken : undefined) });
      closers.push(tap.close);
      return tap.url;
    },
  });
}

/** A core behind a tap that withholds the answers `late` picks (their requests still reach Asterisk). */
async function lateAnswers(late: (e: Omit<TapEntry, 'at'>, nth: number) => boolean): Promise<{ h: RealPbx; withheld: string[] }> {
  const withheld: string[] = [];
  const counts = new Map<string, number>();
  const h = await startRealPbx({
    pbx: { requestTimeoutMs: 1000 },
    ariVia: async (url) => {
      const tap = await startAriTap(url, {
        answerTooLate: (e) => {
          const key = `${e.what} ${e.channel}`;
          const nth = (counts.get(key) ?? 0) + 1;
          counts.set(key, nth);
          if (!late(e, nth)) return false;
          withheld.push(e.what);
          return true;
        },
      });
      closers.push(tap.close);
      return tap.url;
    },
  });
  return { h, withheld };
}

const closers: Array<() => Promise<void>> = [];

describe.skipIf(!real.ok)('Asterisk answering ARI too late (overload)', { timeout: 180_000 }, () => {
  let h: RealPbx | undefined;
  afterEach(async () => {
    await h?.close();
    for (const close of closers.splice(0)) await close();
  });

  /** The caller hears the greeting and beep, speaks, and the box hangs up after the silence. */
  async function leaveMessage(pbx: RealPbx) {
    const { did } = await pbx.business({ businessName: 'Mill Lane Bakery' });
    const call = await pbx.call(did);
    await heardGreetingAndBeep(call);
    const words = speech(MESSAGE);
    await call.media.say(words);
    expect((await call.done).exitCode).toBe(0);
    const row = await pbx.finishedRow(did, 60_000);
    return { row, words };
  }

  it('the record request answered too late: the recording Asterisk started is the message, stored', async () => {
    const late = await lateAnswers((e) => e.what === 'POST /channels/{id}/record');
    h = late.h;
    const { row, words } = await leaveMessage(h);
    expect(late.withheld).toEqual(['POST /channels/{id}/record']);
    expect(row).toMatchObject({ status: 'voicemail', recordingFile: `call-${row.id}.wav` });
    expect(envelopeMatch(words, readWavSamples(path.join(h.server.dataDir, 'recordings', row.recordingFile!))).score).toBeGreaterThan(0.8);
  });

  it('the beep’s end reaching the core late: the caller who speaks straight after the beep is recorded', async () => {
    let spoke!: () => void;
    const spoken = new Promise<void>((r) => (spoke = r));
    h = await lateBeepEnd(spoken);
    const { did } = await h.business({ businessName: 'Mill Lane Bakery' });
    const call = await h.call(did);
    await heardGreetingAndBeep(call);
    const words = speech(MESSAGE);
    await call.media.say(words);
    spoke();
    expect((await call.done).exitCode).toBe(0);
    const row = await h.finishedRow(did, 60_000);
    expect(row).toMatchObject({ status: 'voicemail', recordingFile: `call-${row.id}.wav` });
    expect(envelopeMatch(words, readWavSamples(path.join(h.server.dataDir, 'recordings', row.recordingFile!))).score).toBeGreaterThan(0.8);
  });

  it('the answer and the greeting answered too late: the call goes on, greeting, beep, message stored', async () => {
    const late = await lateAnswers((e, nth) => e.what === 'POST /channels/{id}/answer' || (e.what === 'POST /channels/{id}/play' && nth === 1));
    h = late.h;
    const { row, words } = await leaveMessage(h);
    expect(late.withheld).toEqual(['POST /channels/{id}/answer', 'POST /channels/{id}/play']);
    expect(row).toMatchObject({ status: 'voicemail', recordingFile: `call-${row.id}.wav` });
    expect(envelopeMatch(words, readWavSamples(path.join(h.server.dataDir, 'recordings', row.recordingFile!))).score).toBeGreaterThan(0.8);
  });
});
