// Issue 57 item 7 on a real Asterisk, called by SIPp over loopback: a voicemail owner's own
// recording of their greeting (PUT /api/voicemail/greeting-recording) is what the caller hears,
// then the recording notice the spoken greeting carried, then the beep; the message is stored
// as usual. After DELETE the spoken greeting is heard again.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../core/db/schema.js';
import { RECORDING_NOTICE, businessGreeting } from '../../dialogue/spoken/greeting.js';
import { buildWavHeader } from '../../models/audio/wav-header.js';
import { activeCustomer } from '../helpers/accounts.js';
import type { ApiClient } from '../helpers/client.js';
import { envelopeMatch, readWavSamples, speech } from './audio.js';
import { heardBeep, realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';

const real = realPbxAvailability();

describe.skipIf(!real.ok)('a voicemail owner’s own recorded greeting on a real Asterisk', { timeout: 300_000 }, () => {
  let h: RealPbx;
  beforeAll(async () => {
    h = await startRealPbx();
  });
  afterAll(async () => {
    await h?.close();
  });

  const heardMatches = async (heard: Int16Array, text: string) => envelopeMatch(readWavSamples(await h.promptFile(text, 'female')), heard).score;
  const asWav = (samples: Int16Array) => {
    const data = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
    return Buffer.concat([buildWavHeader({ sampleRate: 8000, channels: 1, bitsPerSample: 16, dataBytes: data.length }), data]);
  };
  const upload = (client: ApiClient, wav: Buffer) =>
    fetch(`${h.server.url}/api/voicemail/greeting-recording`, { method: 'PUT', headers: { 'content-type': 'audio/wav', cookie: client.cookie! }, body: wav });

  it('the caller hears the owner’s recording, the recording notice and the beep, and leaves a message; after DELETE the spoken greeting is back', async () => {
    const { client, user } = await activeCustomer(h.server, { businessName: 'Wren Joinery' });
    const did = `+4477009${String(process.pid % 100).padStart(2, '0')}957`;
    await h.server.database.db.insert(tablesOf(h.server.database.db).phoneNumbers).values({ phoneNumber: did, provider: 'static', providerSid: did, userId: user.id, assignedAt: new Date() });
    // The owner's voice, unlike any prompt the box would say.
    const recording = speech('Hiya, it is Megan at Wren Joinery. I am in the workshop, so tell me what you need and I will ring you back.');
    const saved = await upload(client, asWav(recording));
    expect(saved.status).toBe(200);

    const call = await h.call(did);
    await heardBeep(call);
    const greeting = call.media.heard();
    expect(envelopeMatch(recording, greeting).score).toBeGreaterThan(0.8);
    expect(await heardMatches(greeting, RECORDING_NOTICE)).toBeGreaterThan(0.8);

    const words = speech('Hello Megan, it is Priya about the oak shelves, please call me back.');
    await call.media.say(words);
    expect((await call.done).exitCode).toBe(0);
    const row = await h.finishedRow(did);
    expect(row).toMatchObject({ status: 'voicemail', mode: 'voicemail', recordingFile: `call-${row.id}.wav` });
    expect(envelopeMatch(words, readWavSamples(path.join(h.server.dataDir, 'recordings', row.recordingFile!))).score).toBeGreaterThan(0.8);

    expect((await client.delete('/api/voicemail/greeting-recording')).status).toBe(200);
    const again = await h.call(did);
    await heardBeep(again);
    const spoken = again.media.heard();
    expect(await heardMatches(spoken, businessGreeting('Wren Joinery'))).toBeGreaterThan(0.8);
    expect(envelopeMatch(recording, spoken).score).toBeLessThan(0.8);
    await again.hangUp();
    await again.done;
  });
});
