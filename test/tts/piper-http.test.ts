import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CommandError, createTextToSpeech, LANGUAGE_VOICES, PIPER_VOICES } from '../../models/tts/index.js';
import { freeTcpPort } from '../pbx-real/ports.js';
import { startPiperDouble, type PiperDouble } from '../doubles/piper/server.js';
import { describeWav } from './audio.js';

// The core's Piper adapter over the Piper service (PIPER_URL), against a loopback double of it.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tts-piper-http-'));
const polish = LANGUAGE_VOICES.pl!.piper!;
let piper: PiperDouble;

beforeAll(async () => {
  piper = await startPiperDouble([...Object.values(PIPER_VOICES), polish.female]);
});
afterAll(async () => {
  await piper.close();
  fs.rmSync(root, { recursive: true, force: true });
});
beforeEach(() => {
  piper.requests.length = 0;
  piper.failure = null;
});

describe('Piper over PIPER_URL', () => {
  it('is chosen when PIPER_URL is set, and espeak-ng still when TTS_ENGINE says so', () => {
    expect(createTextToSpeech({ piperBin: 'no-such-piper', piperUrl: piper.url }).engine).toBe('piper');
    expect(createTextToSpeech({ piperBin: 'no-such-piper', piperUrl: piper.url, engine: 'espeak-ng' }).engine).toBe('espeak-ng');
    expect(createTextToSpeech({ piperBin: 'no-such-piper' }).engine).toBe('espeak-ng');
  });

  it.each(['female', 'male'] as const)('asks the service for the %s UK voice and converts its WAV to 8 kHz mono', async (voice) => {
    const tts = createTextToSpeech({ piperBin: 'no-such-piper', piperUrl: piper.url });
    const out = path.join(root, `${voice}.wav`);
    await tts.synthesize('Hello from the greeting', voice, out);
    expect(piper.requests).toEqual([{ text: 'Hello from the greeting', voice: PIPER_VOICES[voice] }]);
    const info = await describeWav(out);
    expect(info).toMatchObject({ audioFormat: 1, sampleRate: 8000, channels: 1, bitsPerSample: 16 });
    expect(info.durationMs).toBe(1500);
    expect(tts.voiceName!(voice)).toBe(`piper:${PIPER_VOICES[voice]}`);
  });

  it("speaks another language with the service's voice for it, the owner's choice when the service has it, else espeak-ng", async () => {
    const tts = createTextToSpeech({ piperBin: 'no-such-piper', piperUrl: piper.url });
    await tts.synthesize('Dzień dobry', 'female', path.join(root, 'pl-f.wav'), undefined, 'pl');
    expect(piper.requests).toEqual([{ text: 'Dzień dobry', voice: polish.female }]);
    expect(tts.voiceName!('female', 'pl')).toBe(`piper:${polish.female}`);
    expect(tts.voices!('pl').map((v) => v.id)).toEqual([`piper:${polish.female}`, 'espeak-ng:pl+f3', 'espeak-ng:pl']);

    // The male Polish voice is not in the service: espeak-ng speaks it here, Piper is not asked.
    piper.requests.length = 0;
    expect(tts.voiceName!('male', 'pl')).toBe('espeak-ng:pl');
    const male = path.join(root, 'pl-m.wav');
    await tts.synthesize('Dzień dobry', 'male', male, undefined, 'pl');
    expect(piper.requests).toEqual([]);
    expect(await describeWav(male)).toMatchObject({ sampleRate: 8000, channels: 1 });

    // The owner chose the installed Piper voice for a male setting: it speaks.
    await tts.synthesize('Dzień dobry', 'male', path.join(root, 'pl-chosen.wav'), undefined, 'pl', `piper:${polish.female}`);
    expect(piper.requests).toEqual([{ text: 'Dzień dobry', voice: polish.female }]);
    // The owner chose espeak-ng's voice: Piper's is not used.
    expect(tts.voiceName!('female', 'pl', 'espeak-ng:pl')).toBe('espeak-ng:pl');
    // Urdu has no Piper voice at all.
    piper.requests.length = 0;
    await tts.synthesize('سلام', 'female', path.join(root, 'ur.wav'), undefined, 'ur');
    expect(piper.requests).toEqual([]);
  });

  it("says what the service refused, with its message", async () => {
    const tts = createTextToSpeech({ piperBin: 'no-such-piper', piperUrl: piper.url });
    piper.failure = { status: 400, error: 'text is too long: at most 2000 characters' };
    const err = await tts.synthesize('Hello', 'female', path.join(root, 'refused.wav')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CommandError);
    expect((err as Error).message).toBe(`the Piper service at PIPER_URL (${piper.url}) refused voice ${PIPER_VOICES.female} (400): text is too long: at most 2000 characters`);
    expect(fs.existsSync(path.join(root, 'refused.wav'))).toBe(false);
  });

  it('names PIPER_URL when the service is unreachable', async () => {
    const url = `http://127.0.0.1:${await freeTcpPort()}`;
    const tts = createTextToSpeech({ piperBin: 'no-such-piper', piperUrl: url });
    const err = await tts.synthesize('Hello', 'male', path.join(root, 'unreachable.wav')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CommandError);
    expect((err as Error).message).toMatch(new RegExp(`^the Piper service at PIPER_URL \\(${url.replace(/\./g, '\\.')}\\) is unreachable \\(.+\\): check the piper container`));
  });
});
