import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { calls } from '../helpers/tables.js';
import { NO_MESSAGE_GOODBYE, THANK_YOU } from '../../dialogue/spoken/call-lines.js';
import { businessGreeting, GENERIC_GREETING } from '../../dialogue/spoken/greeting.js';
import { callerSpeech } from '../ari-sim/caller-audio.js';
import { parseAriTime } from '../../pbx/ari/ari-time.js';
import { parseWav, rms } from '../ari-sim/wav.js';
import { CALLER, APP, startHarness, type Harness } from './harness.js';

let h: Harness;
const MESSAGE = 'Hi, this is Jane Smith. My kitchen tap is leaking. Please call me back on oh seven seven double oh nine hundred.';

beforeAll(async () => {
  h = await startHarness({ timeScale: 10 });
});
afterAll(async () => {
  await h?.close();
});

async function callRow(channelId: string) {
  return (await h.server.database.db.select().from(calls).where(eq(calls.channelId, channelId)).limit(1))[0];
}

/** The call's length on the simulated Asterisk clock: creation to the hang-up request. */
function simulatedSeconds(channelId: string): number {
  const events = h.sim.sentEvents.filter((e) => (e.channel as { id?: string } | undefined)?.id === channelId);
  const start = parseAriTime((events[0]!.channel as { creationtime: string }).creationtime)!;
  const end = parseAriTime(events.find((e) => e.type === 'ChannelHangupRequest')!.timestamp as string)!;
  return (end - start) / 1000;
}

async function finishedRow(channelId: string) {
  return vi.waitFor(
    async () => {
      const row = await callRow(channelId);
      if (!row?.endedAt) throw new Error('call not finished yet');
      return row;
    },
    { timeout: 20_000 },
  );
}

describe('voicemail calls through ARI', () => {
  it('a caller who leaves a message and hangs up is stored as voicemail with their words in a valid WAV', async () => {
    const biz = await h.business({ businessName: 'Acme Plumbing', voicePreference: 'female' });
    const say = callerSpeech(MESSAGE);
    const call = h.sim.call({ app: APP, from: CALLER, did: biz.did, script: { onRecord: [{ say }, { silence: 800 }, { hangup: true }] } });
    const heard = await call.done;
    const row = await finishedRow(call.channelId);

    expect(row).toMatchObject({ userId: biz.userId, fromNumber: CALLER, toNumber: biz.did, mode: 'voicemail', status: 'voicemail', recordingFile: `call-${row.id}.wav` });
    expect(row.duration).toBe(Math.round(simulatedSeconds(call.channelId)));
    expect(row.duration).toBeGreaterThanOrEqual(10); // greeting + beep + ~7 s message
    expect(heard.heard).toEqual([await h.prompt(businessGreeting('Acme Plumbing'), 'female'), 'sound:beep']);
    expect(heard.hungUpBy).toBe('caller');

    const stored = parseWav(fs.readFileSync(path.join(h.recordingsDir, row.recordingFile!)));
    const spoken = parseWav(fs.readFileSync(say));
    expect([stored.sampleRate, stored.channels, stored.bitsPerSample]).toEqual([8000, 1, 16]);
    expect(stored.data.subarray(0, spoken.data.length).equals(spoken.data)).toBe(true);
    expect(rms(stored.data)).toBeGreaterThan(100);
    // Deleted on Asterisk only once safely stored here.
    expect(h.sim.storedRecordingNames()).not.toContain(`call-${row.id}`);
    await vi.waitFor(() => expect(h.finished).toContain(row.id));
  });

  it('a caller who presses # after the message hears the thank-you and is hung up: voicemail', async () => {
    const biz = await h.business({ businessName: 'Leeds Locksmiths', voicePreference: 'male' });
    const call = h.sim.call({ app: APP, from: CALLER, did: biz.did, script: { onRecord: [{ say: callerSpeech('Locked out at number twelve, please hurry.') }, { press: '#' }] } });
    const outcome = await call.done;
    const row = await finishedRow(call.channelId);
    expect(row.status).toBe('voicemail');
    expect(outcome.hungUpBy).toBe('app');
    expect(outcome.heard).toEqual([await h.prompt(businessGreeting('Leeds Locksmiths'), 'male'), 'sound:beep', await h.prompt(THANK_YOU, 'male')]);
    expect(outcome.events).toContain('ChannelDtmfReceived');
    expect(fs.existsSync(path.join(h.recordingsDir, `call-${row.id}.wav`))).toBe(true);
    expect(row.duration).toBe(Math.round(simulatedSeconds(call.channelId)));
  });

  it('a caller who hangs up during the greeting is a missed call with its real length and no recording', async () => {
    const biz = await h.business({ callGreeting: 'Hello, you have reached the Bakehouse. We are baking right now, so please leave a message after the beep.' });
    const call = h.sim.call({ app: APP, from: CALLER, did: biz.did, script: { hangupIntoFirstSoundMs: 3000 } });
    const outcome = await call.done;
    const row = await finishedRow(call.channelId);
    expect(row).toMatchObject({ status: 'missed', mode: 'voicemail', recordingFile: null });
    expect(row.duration).toBe(Math.round(simulatedSeconds(call.channelId)));
    expect(row.duration).toBeGreaterThanOrEqual(3);
    expect(outcome.heard).toEqual([await h.prompt('Hello, you have reached the Bakehouse. We are baking right now, so please leave a message after the beep.', 'female')]);
    expect(h.sim.restLog.some((r) => r.path === `/ari/channels/${call.channelId}/record`)).toBe(false);
    await vi.waitFor(() => expect(h.finished).toContain(row.id));
  });

  it('a caller who stays silent is stopped by the silence limit, told no message was heard, and logged as missed', async () => {
    const biz = await h.business({});
    const call = h.sim.call({ app: APP, from: CALLER, did: biz.did, script: { onRecord: [] } });
    const outcome = await call.done;
    const row = await finishedRow(call.channelId);
    expect(row).toMatchObject({ status: 'missed', recordingFile: null });
    expect(outcome.heard).toEqual([await h.prompt(GENERIC_GREETING, 'female'), 'sound:beep', await h.prompt(NO_MESSAGE_GOODBYE, 'female')]);
    expect(outcome.hungUpBy).toBe('app');
    expect(h.sim.storedRecordingNames()).not.toContain(`call-${row.id}`);
    expect(fs.existsSync(path.join(h.recordingsDir, `call-${row.id}.wav`))).toBe(false);
  });

  it('speaks the owner’s custom greeting in the owner’s chosen voice', async () => {
    const greeting = 'Thanks for calling Harrogate Florists. Leave your order after the tone.';
    const biz = await h.business({ businessName: 'Harrogate Florists', callGreeting: greeting, voicePreference: 'male' });
    // Hangs up once the greeting has started (the first call synthesises it).
    const call = h.sim.call({ app: APP, from: CALLER, did: biz.did, script: { hangupAfterMs: 60_000 } });
    await vi.waitFor(() => expect(h.sim.sentEvents.some((e) => e.type === 'PlaybackStarted' && (e.playback as { target_uri: string }).target_uri === `channel:${call.channelId}`)).toBe(true));
    h.sim.hangupCaller(call.channelId);
    const outcome = await call.done;
    expect(outcome.heard[0]).toBe(await h.prompt(greeting, 'male'));
    expect(outcome.heard[0]).not.toBe(await h.prompt(greeting, 'female'));
  });

  it('made only ARI calls the Swagger allows and received only well-formed events', () => {
    expect(h.protocolProblems()).toEqual([]);
  });
});
