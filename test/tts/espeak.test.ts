import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTextToSpeech } from '../../models/tts/index.js';
import { describeWav } from './audio.js';

// The real espeak-ng and sox from Debian.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tts-espeak-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const tts = createTextToSpeech({ piperBin: 'piper-not-installed', engine: 'espeak-ng' });

describe('espeak-ng adapter', () => {
  it.each(['female', 'male'] as const)('speaks with the %s UK voice as 8 kHz mono 16-bit PCM', async (voice) => {
    const out = path.join(dir, `${voice}.wav`);
    await tts.synthesize('Thank you for calling Acme Plumbing. Please leave a message after the tone.', voice, out);
    const info = await describeWav(out);
    expect(info).toMatchObject({ audioFormat: 1, sampleRate: 8000, channels: 1, bitsPerSample: 16 });
    // About four seconds of speech: real audio, not an empty header.
    expect(info.durationMs).toBeGreaterThan(2000);
    expect(info.durationMs).toBeLessThan(10000);
  });

  it('gives the two voices different audio', async () => {
    const female = fs.readFileSync(path.join(dir, 'female.wav'));
    const male = fs.readFileSync(path.join(dir, 'male.wav'));
    expect(female.equals(male)).toBe(false);
  });

  it('reads text that looks like an option as text', async () => {
    const out = path.join(dir, 'dash.wav');
    await tts.synthesize('-w /etc/passwd --help', 'male', out);
    expect((await describeWav(out)).durationMs).toBeGreaterThan(500);
  });

  it('stops when the signal aborts', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(tts.synthesize('Hello', 'female', path.join(dir, 'aborted.wav'), controller.signal)).rejects.toThrow(/cancelled/);
    expect(fs.existsSync(path.join(dir, 'aborted.wav'))).toBe(false);
  });
});
