import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { alawToLinear, ulawToLinear } from '../../models/audio/g711.js';
import { buildWavHeader, parseWavHeader } from '../../models/audio/wav-header.js';
import { createPromptCache, createPromptFolder, createTextToSpeech, type TextToSpeech, type Voice } from '../../models/tts/index.js';
import { describeWav } from './audio.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tts-cache-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** The real espeak-ng engine, counting what it is asked to say. */
function countingEspeak() {
  const real = createTextToSpeech({ engine: 'espeak-ng', piperBin: 'piper' });
  const calls: Array<{ text: string; voice: Voice }> = [];
  const tts: TextToSpeech = {
    engine: real.engine,
    synthesize(text, voice, outFile, signal) {
      calls.push({ text, voice });
      return real.synthesize(text, voice, outFile, signal);
    },
  };
  return { tts, calls };
}

const promptFiles = () => fs.readdirSync(path.join(dataDir, 'prompts')).sort();

describe('prompt cache', () => {
  const greeting = 'Thank you for calling Acme Plumbing. Please leave a message after the tone.';

  it('synthesises a greeting once, even for concurrent callers, and serves it from disk after', async () => {
    const { tts, calls } = countingEspeak();
    const cache = createPromptCache({ dataDir, tts });
    const prompts = await Promise.all(Array.from({ length: 5 }, () => cache.get(greeting, 'female')));
    expect(calls).toHaveLength(1);
    expect(new Set(prompts.map((p) => p.file)).size).toBe(1);

    const prompt = prompts[0]!;
    expect(prompt.file).toBe(path.join(dataDir, 'prompts', `${prompt.mediaUri.replace('sound:appliance/', '')}.wav`));
    expect(prompt.mediaUri).toMatch(/^sound:appliance\/[0-9a-f]{64}$/);
    const info = await describeWav(prompt.file);
    expect(info).toMatchObject({ sampleRate: 8000, channels: 1, bitsPerSample: 16 });
    expect(prompt.durationMs).toBe(info.durationMs);
    expect(prompt.durationMs).toBeGreaterThan(2000);
    // Its G.711 copies beside it, for Asterisk to play in the call's own codec; no temp file left behind.
    const stem = path.basename(prompt.file, '.wav');
    expect(promptFiles()).toEqual([`${stem}.alaw`, `${stem}.ulaw`, `${stem}.wav`]);

    // A new process (a restart) finds the file and does not synthesise again.
    const again = countingEspeak();
    const restarted = createPromptCache({ dataDir, tts: again.tts });
    expect(await restarted.get(`  ${greeting.replace(/ /g, '  ')}\n`, 'female')).toEqual(prompt);
    expect(again.calls).toHaveLength(0);
  });

  it('plays in the call’s own codec: a prompt made before its G.711 copies gets them on its next use, the same audio', async () => {
    const { tts } = countingEspeak();
    const prompt = await createPromptCache({ dataDir, tts }).get(greeting, 'female');
    const stem = path.join(dataDir, 'prompts', path.basename(prompt.file, '.wav'));
    // As an older build left it: the WAV alone.
    fs.rmSync(`${stem}.ulaw`);
    fs.rmSync(`${stem}.alaw`);
    const later = countingEspeak();
    await createPromptCache({ dataDir, tts: later.tts }).get(greeting, 'female');
    expect(later.calls).toHaveLength(0);
    const wav = fs.readFileSync(prompt.file);
    const info = parseWavHeader(wav, wav.length);
    const pcm = new Int16Array(wav.buffer.slice(wav.byteOffset + info.dataOffset, wav.byteOffset + info.dataOffset + info.dataBytes));
    for (const [law, decode] of [['ulaw', ulawToLinear], ['alaw', alawToLinear]] as const) {
      const copy = fs.readFileSync(`${stem}.${law}`);
      expect(copy.length).toBe(pcm.length); // one byte a sample, no header: what format_pcm reads
      let err = 0;
      let level = 0;
      for (let i = 0; i < pcm.length; i++) {
        err += (decode(copy[i]!) - pcm[i]!) ** 2;
        level += pcm[i]! ** 2;
      }
      expect(10 * Math.log10(level / err)).toBeGreaterThan(30); // G.711's signal-to-noise on speech is ≈ 35–38 dB
    }
  });

  it('makes a new file when the greeting or the voice changes', async () => {
    const { tts, calls } = countingEspeak();
    const cache = createPromptCache({ dataDir, tts });
    const before = await cache.get(greeting, 'female');
    const edited = await cache.get('Thanks for calling Acme Plumbing and Heating.', 'female');
    const male = await cache.get(greeting, 'male');
    // The first greeting was cached by the previous test: only the edit and the male voice are new.
    expect(calls.map((c) => [c.text.slice(0, 10), c.voice])).toEqual([['Thanks for', 'female'], ['Thank you ', 'male']]);
    expect(new Set([before.file, edited.file, male.file]).size).toBe(3);
    for (const p of [before, edited, male]) expect(fs.existsSync(p.file)).toBe(true);
  });

  it('keeps no file when synthesis fails, and tries again next time', async () => {
    let fail = true;
    const real = createTextToSpeech({ engine: 'espeak-ng', piperBin: 'piper' });
    let attempts = 0;
    const tts: TextToSpeech = {
      engine: 'espeak-ng',
      async synthesize(text, voice, outFile) {
        attempts++;
        if (fail) {
          fs.writeFileSync(outFile, 'half a file');
          throw new Error('engine fell over');
        }
        return real.synthesize(text, voice, outFile);
      },
    };
    const cache = createPromptCache({ dataDir, tts });
    const before = promptFiles();
    await expect(cache.get('We are closed today.', 'male')).rejects.toThrow('engine fell over');
    expect(promptFiles()).toEqual(before);
    fail = false;
    const prompt = await cache.get('We are closed today.', 'male');
    expect(attempts).toBe(2);
    expect(fs.existsSync(prompt.file)).toBe(true);
  });

  it('refuses audio that is not 8 kHz mono 16-bit, and empty text', async () => {
    const tts: TextToSpeech = {
      engine: 'espeak-ng',
      async synthesize(_text, _voice, outFile) {
        // A 16 kHz file: what a misconfigured engine might produce.
        fs.writeFileSync(outFile, Buffer.concat([buildWavHeader({ sampleRate: 16000, channels: 1, bitsPerSample: 16, dataBytes: 3200 }), Buffer.alloc(3200)]));
      },
    };
    const cache = createPromptCache({ dataDir, tts });
    await expect(cache.get('Wrong rate', 'female')).rejects.toThrow(/16000 Hz.*instead of 8 kHz mono 16-bit PCM/);
    await expect(cache.get('   ', 'female')).rejects.toThrow(/empty text/);
  });
});

describe('prompt cache size cap (issue 13 item 10)', () => {
  /** Writes one second of 8 kHz mono 16-bit silence: 16,044 bytes a prompt. */
  const fixedTts: TextToSpeech = {
    engine: 'espeak-ng',
    async synthesize(_text, _voice, outFile) {
      const data = Buffer.alloc(16_000);
      fs.writeFileSync(outFile, Buffer.concat([buildWavHeader({ sampleRate: 8000, channels: 1, bitsPerSample: 16, dataBytes: data.length }), data]));
    },
  };
  /** The WAV and its two G.711 copies (8,000 bytes each). */
  const ONE = 16_044 + 2 * 8_000;

  it('deletes the least recently used prompts once the folder passes its cap, and keeps the rest', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tts-cap-'));
    try {
      // Console previews (background): not held for a live call, so only their age counts.
      const cache = createPromptCache({ dataDir: dir, tts: fixedTts, folder: createPromptFolder({ dir: path.join(dir, 'prompts'), maxBytes: 3 * ONE }) });
      const first = await cache.get('one', 'female', 'background');
      const second = await cache.get('two', 'female', 'background');
      const third = await cache.get('three', 'female', 'background');
      // Make the order unambiguous on coarse file clocks, then use "one" again: "two" is now the oldest.
      fs.utimesSync(first.file, new Date(1_000_000), new Date(1_000_000));
      fs.utimesSync(second.file, new Date(2_000_000), new Date(2_000_000));
      fs.utimesSync(third.file, new Date(3_000_000), new Date(3_000_000));
      await cache.get('one', 'female', 'background');
      const fourth = await cache.get('four', 'female', 'background');
      const left = fs.readdirSync(path.join(dir, 'prompts')).filter((f) => f.endsWith('.wav')).sort();
      expect(left).toEqual([first.file, third.file, fourth.file].map((f) => path.basename(f)).sort());
      // The evicted prompt's copies went with it.
      expect(fs.readdirSync(path.join(dir, 'prompts'))).toHaveLength(3 * 3);
      expect(fs.existsSync(second.file)).toBe(false);
      // A pruned prompt is made again when asked for.
      expect(fs.existsSync((await cache.get('two', 'female', 'background')).file)).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
