// Voicemail on a real Asterisk 20.17.0 with the project's configuration, called by SIPp
// over loopback: what the caller hears, what is stored, and the call row, per flow.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_MESSAGE_GOODBYE, NOT_IN_SERVICE, THANK_YOU, unavailableMessage } from '../../dialogue/spoken/call-lines.js';
import { businessGreeting } from '../../dialogue/spoken/greeting.js';
import { waitUntil } from '../helpers/wait.js';
import { envelopeMatch, loudMs, readWavSamples, speech } from './audio.js';
import { heardGreetingAndBeep, realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';

const real = realPbxAvailability();

// Each test makes a business, places a call and hears it out; on a loaded machine (CI beside
// other work) that outlasts the default 30 s, which a red run on 65eea81 hit mid-greeting.
describe.skipIf(!real.ok)('voicemail on a real Asterisk, called over SIP', { timeout: 180_000 }, () => {
  let h: RealPbx;
  beforeAll(async () => {
    h = await startRealPbx();
  });
  afterAll(async () => {
    await h?.close();
  });

  const stored = (file: string) => readWavSamples(path.join(h.server.dataDir, 'recordings', file));
  const heardMatches = async (heard: Int16Array, text: string, voice: 'female' | 'male' = 'female') =>
    envelopeMatch(readWavSamples(await h.promptFile(text, voice)), heard).score;

  it('stores the caller’s spoken message: the stored WAV holds what the caller said', async () => {
    const { did } = await h.business({ businessName: 'Hale Plumbing' });
    const call = await h.call(did);
    await heardGreetingAndBeep(call);
    const greeting = call.media.heard();
    const words = speech('Hello, this is Sam from number twelve. My boiler is leaking, please call me back this afternoon.');
    const spokenAt = performance.now();
    await call.media.say(words);
    expect((await call.done).exitCode).toBe(0); // Asterisk hung up after the thank-you

    const row = await h.finishedRow(did);
    expect(row).toMatchObject({ status: 'voicemail', mode: 'voicemail', recordingFile: `call-${row.id}.wav`, fromNumber: '+447700900555' });
    expect(envelopeMatch(words, stored(row.recordingFile!)).score).toBeGreaterThan(0.8);
    expect(await heardMatches(greeting, businessGreeting('Hale Plumbing'))).toBeGreaterThan(0.8);
    expect(await heardMatches(call.media.heard(spokenAt), THANK_YOU)).toBeGreaterThan(0.8);
    expect(row.duration).toBeGreaterThanOrEqual(Math.floor(words.length / 8000));
    // Asterisk's copy is deleted once the row names the local file.
    await waitUntil(() => expect(fs.readdirSync(h.asterisk.recordingsDir)).not.toContain(`call-${row.id}.wav`), 10_000);
  });

  it('plays the greeting in the caller’s own codec: no translator runs on the channel while it plays (issue 47)', async () => {
    const { did } = await h.business({ businessName: 'Native Codec Joinery' });
    const call = await h.call(did);
    await waitUntil(() => expect(call.media.soundMs()).toBeGreaterThan(600), 90_000);
    // concise: name!context!exten!… — this call is the one to its own number.
    const name = h.asterisk.cli('core show channels concise').split('\n').map((l) => l.split('!')).find((f) => f[2] === did)?.[0];
    const shown = h.asterisk.cli(`core show channel ${name}`);
    expect(shown).toMatch(/WriteFormat: ulaw/);
    // Before the G.711 copies: "WriteTranscode: Yes (slin@8000)->(ulaw@8000)", a translator on every frame.
    expect(shown).toMatch(/WriteTranscode: No/);
    await call.hangUp();
    await call.done;
  });

  it('a caller hanging up during the greeting is a missed call, with no message and no fallback warnings', async () => {
    const { did } = await h.business({ businessName: 'Salon Nine' });
    const call = await h.call(did);
    await waitUntil(() => expect(call.media.soundMs()).toBeGreaterThan(600), 90_000);
    const logFrom = h.coreLog.length;
    await call.hangUp();
    expect((await call.done).exitCode).toBe(0);
    const row = await h.finishedRow(did);
    expect(row).toMatchObject({ status: 'missed', recordingFile: null });
    const warnings = h.coreLog.slice(logFrom).filter((l) => l.level >= 40).map((l) => l.msg);
    expect(warnings).toEqual([]);
    expect(h.coreLog.slice(logFrom).map((l) => l.msg)).toContain('caller hung up');
  });

  it('# ends the message at once: what the caller says after it is not recorded', async () => {
    const { did } = await h.business({ businessName: 'Quick Keys' });
    const call = await h.call(did);
    await heardGreetingAndBeep(call);
    const message = speech('Please ring me about the spare keys for the office.');
    const after = speech('And one more thing about the garage door that should not be kept.');
    await call.media.say(message);
    await call.media.digits('#');
    await call.media.say(after);
    expect((await call.done).exitCode).toBe(0);
    const row = await h.finishedRow(did);
    expect(row.status).toBe('voicemail');
    const kept = stored(row.recordingFile!);
    expect(envelopeMatch(message, kept).score).toBeGreaterThan(0.8);
    // The file ends where # was pressed: nothing of the second sentence in it.
    expect(kept.length / 8000).toBeLessThan((message.length + after.length / 2) / 8000);
  });

  it('a silent caller is missed: told no message was heard, nothing stored, no voicemail', async () => {
    const { did } = await h.business({ businessName: 'Quiet Line Ltd' });
    const call = await h.call(did);
    const beepAt = await heardGreetingAndBeep(call);
    expect((await call.done).exitCode).toBe(0); // silence stop, goodbye, Asterisk hangs up
    const row = await h.finishedRow(did);
    expect(row).toMatchObject({ status: 'missed', recordingFile: null });
    expect(await heardMatches(call.media.heard(beepAt), NO_MESSAGE_GOODBYE)).toBeGreaterThan(0.8);
    expect(fs.readdirSync(path.join(h.server.dataDir, 'recordings')).filter((f) => f.startsWith(`call-${row.id}`))).toEqual([]);
  });

  it('Asterisk refusing to record (500): the caller hears goodbye, the call is missed, and the log says why', async () => {
    const { did } = await h.business({ businessName: 'Broken Spool Ltd' });
    // Asterisk answers POST /channels/{id}/record with 500 when its recording folder is missing.
    const spool = h.asterisk.recordingsDir;
    fs.renameSync(spool, `${spool}.away`);
    try {
      const logFrom = h.coreLog.length;
      const call = await h.call(did);
      expect((await call.done).exitCode).toBe(0);
      const row = await h.finishedRow(did);
      expect(row).toMatchObject({ status: 'missed', recordingFile: null });
      const lines = h.coreLog.slice(logFrom);
      expect(lines.filter((l) => l.level >= 50).map((l) => l.msg)).toEqual(['call flow failed; saying goodbye and hanging up']);
      expect(JSON.stringify(lines)).toMatch(/ARI POST \/channels\/[^ ]+\/record[^"]*500/);
      expect(lines.map((l) => l.msg).join('\n')).not.toMatch(/caller left|nothing was recorded/);
    } finally {
      fs.renameSync(`${spool}.away`, spool);
    }
  });

  it('an unknown number hears "not in service" and leaves no call row', async () => {
    const did = '+447700900999';
    const call = await h.call(did);
    expect((await call.done).exitCode).toBe(0);
    expect(await heardMatches(call.media.heard(), NOT_IN_SERVICE)).toBeGreaterThan(0.8);
    expect(await h.rows(did)).toEqual([]);
  });

  it('a suspended business’s caller hears the polite message in the owner’s voice; the row is a missed call', async () => {
    const { did } = await h.business({ businessName: 'Paused Plumbing', accountStatus: 'suspended', voicePreference: 'male' });
    const call = await h.call(did);
    expect((await call.done).exitCode).toBe(0);
    expect(await heardMatches(call.media.heard(), unavailableMessage('suspended', 'Paused Plumbing'), 'male')).toBeGreaterThan(0.8);
    const row = await h.finishedRow(did);
    expect(row).toMatchObject({ mode: 'unavailable', status: 'missed', recordingFile: null });
    expect(loudMs(call.media.heard())).toBeGreaterThan(1000);
  });
});
