import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommandError, createTextToSpeech, LANGUAGE_VOICES, PIPER_VOICES } from '../../models/tts/index.js';
import { describeWav } from './audio.js';

// No Piper weights can be fetched here, so a fake `piper` on PATH stands in for the CLI:
// it logs its arguments and stdin, then writes a 22.05 kHz WAV as Piper's medium voices do.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tts-piper-'));
const binDir = path.join(root, 'bin');
const voicesDir = path.join(root, 'voices');
const logFile = path.join(root, 'piper.log');
const savedPath = process.env.PATH;

beforeAll(() => {
  fs.mkdirSync(binDir);
  fs.mkdirSync(voicesDir);
  for (const name of Object.values(PIPER_VOICES)) {
    fs.writeFileSync(path.join(voicesDir, `${name}.onnx`), 'fake model');
    fs.writeFileSync(path.join(voicesDir, `${name}.onnx.json`), '{"audio":{"sample_rate":22050}}');
  }
  fs.writeFileSync(
    path.join(binDir, 'piper'),
    `#!/bin/sh
out=""; model=""
printf '%s\\n' "$*" >> "${logFile}"
while [ $# -gt 0 ]; do
  case "$1" in
    --model) model="$2"; shift 2;;
    --output_file) out="$2"; shift 2;;
    *) echo "unexpected argument $1" >&2; exit 2;;
  esac
done
[ -f "$model" ] || { echo "no model $model" >&2; exit 1; }
text=$(cat)
printf 'stdin:%s\\n' "$text" >> "${logFile}"
case "$text" in *FAIL*) echo "Piper crashed on purpose" >&2; exit 3;; esac
sox -n -r 22050 -c 1 -b 16 -e signed-integer "$out" synth 1.5 sine 440
`,
    { mode: 0o755 },
  );
  process.env.PATH = `${binDir}${path.delimiter}${savedPath}`;
});
afterAll(() => {
  process.env.PATH = savedPath;
  fs.rmSync(root, { recursive: true, force: true });
});

describe('piper adapter', () => {
  it('is chosen when piper is on PATH and both UK voices are present', () => {
    expect(createTextToSpeech({ piperBin: 'piper', piperVoicesDir: voicesDir }).engine).toBe('piper');
  });

  it.each(['female', 'male'] as const)('runs the CLI with the %s voice model and converts to 8 kHz mono', async (voice) => {
    fs.rmSync(logFile, { force: true });
    const tts = createTextToSpeech({ piperBin: 'piper', piperVoicesDir: voicesDir });
    const out = path.join(root, `${voice}.wav`);
    await tts.synthesize('Hello from the greeting', voice, out);

    const log = fs.readFileSync(logFile, 'utf8').split('\n');
    expect(log[0]).toMatch(new RegExp(`^--model ${voicesDir}/${PIPER_VOICES[voice]}\\.onnx --output_file \\S+\\.wav$`));
    expect(log[1]).toBe('stdin:Hello from the greeting');
    const info = await describeWav(out);
    expect(info).toMatchObject({ audioFormat: 1, sampleRate: 8000, channels: 1, bitsPerSample: 16 });
    expect(info.durationMs).toBe(1500);
  });

  it("speaks Polish with Piper's Polish voice when it is installed, and with espeak-ng's when it is not", async () => {
    const tts = createTextToSpeech({ piperBin: 'piper', piperVoicesDir: voicesDir });
    const polish = LANGUAGE_VOICES.pl!.piper!.female;
    // Not installed yet: espeak-ng speaks it (Piper is not run), and the prompt is named for espeak-ng's voice.
    fs.rmSync(logFile, { force: true });
    expect(tts.voiceName!('female', 'pl')).toBe('espeak-ng:pl+f3');
    const before = path.join(root, 'pl-espeak.wav');
    await tts.synthesize('Dzień dobry', 'female', before, undefined, 'pl');
    expect(fs.existsSync(logFile)).toBe(false);
    expect(await describeWav(before)).toMatchObject({ sampleRate: 8000, channels: 1, bitsPerSample: 16 });

    fs.writeFileSync(path.join(voicesDir, `${polish}.onnx`), 'fake model');
    fs.writeFileSync(path.join(voicesDir, `${polish}.onnx.json`), '{"audio":{"sample_rate":22050}}');
    try {
      expect(tts.voiceName!('female', 'pl')).toBe(`piper:${polish}`);
      await tts.synthesize('Dzień dobry', 'female', path.join(root, 'pl.wav'), undefined, 'pl');
      expect(fs.readFileSync(logFile, 'utf8').split('\n')[0]).toMatch(new RegExp(`^--model ${voicesDir}/${polish}\\.onnx `));
    } finally {
      fs.rmSync(path.join(voicesDir, `${polish}.onnx`));
      fs.rmSync(path.join(voicesDir, `${polish}.onnx.json`));
    }
  });

  it("offers the owner a language's installed Piper voices and espeak-ng's, and speaks in the one chosen (issue 42)", async () => {
    const tts = createTextToSpeech({ piperBin: 'piper', piperVoicesDir: voicesDir });
    const gosia = LANGUAGE_VOICES.pl!.piper!.female;
    // Nothing Polish from Piper installed: espeak-ng's two voices only; English's voice is the female/male setting.
    expect(tts.voices!('pl').map((v) => v.id)).toEqual(['espeak-ng:pl+f3', 'espeak-ng:pl']);
    expect(tts.voices!('en')).toEqual([]);
    fs.writeFileSync(path.join(voicesDir, `${gosia}.onnx`), 'fake model');
    fs.writeFileSync(path.join(voicesDir, `${gosia}.onnx.json`), '{"audio":{"sample_rate":22050}}');
    try {
      // Darkman (male) is not installed, so it is not offered.
      expect(tts.voices!('pl')).toEqual([
        { id: `piper:${gosia}`, label: 'Gosia (Piper)' },
        { id: 'espeak-ng:pl+f3', label: 'Basic female voice (plainer, more robotic)' },
        { id: 'espeak-ng:pl', label: 'Basic male voice (plainer, more robotic)' },
      ]);
      // The owner's male setting, but Gosia chosen for Polish: Piper speaks it with Gosia's model.
      expect(tts.voiceName!('male', 'pl', `piper:${gosia}`)).toBe(`piper:${gosia}`);
      fs.rmSync(logFile, { force: true });
      await tts.synthesize('Dzień dobry', 'male', path.join(root, 'pl-chosen.wav'), undefined, 'pl', `piper:${gosia}`);
      expect(fs.readFileSync(logFile, 'utf8').split('\n')[0]).toMatch(new RegExp(`^--model ${voicesDir}/${gosia}\\.onnx `));
      // espeak-ng chosen though Piper has the language: espeak-ng speaks it, Piper is not run.
      fs.rmSync(logFile, { force: true });
      expect(tts.voiceName!('female', 'pl', 'espeak-ng:pl')).toBe('espeak-ng:pl');
      await tts.synthesize('Dzień dobry', 'female', path.join(root, 'pl-espeak-chosen.wav'), undefined, 'pl', 'espeak-ng:pl');
      expect(fs.existsSync(logFile)).toBe(false);
      // A choice the box does not have for Polish (not installed, or another language's) falls back to the female/male rule.
      expect(tts.voiceName!('female', 'pl', 'piper:pl_PL-darkman-medium')).toBe(`piper:${gosia}`);
      expect(tts.voiceName!('female', 'pl', 'espeak-ng:ro')).toBe(`piper:${gosia}`);
    } finally {
      fs.rmSync(path.join(voicesDir, `${gosia}.onnx`));
      fs.rmSync(path.join(voicesDir, `${gosia}.onnx.json`));
    }
    // Urdu: espeak-ng's voices only, which read its Arabic script.
    expect(tts.voices!('ur').map((v) => v.id)).toEqual(['espeak-ng:ur+f3', 'espeak-ng:ur']);
  });

  it('speaks Urdu with espeak-ng, as Piper has no Urdu voice', async () => {
    fs.rmSync(logFile, { force: true });
    const tts = createTextToSpeech({ piperBin: 'piper', piperVoicesDir: voicesDir });
    expect(tts.voiceName!('male', 'ur')).toBe('espeak-ng:ur');
    const out = path.join(root, 'ur.wav');
    await tts.synthesize('شکریہ۔ آپ کا پیغام ریکارڈ ہو گیا ہے۔', 'male', out, undefined, 'ur');
    expect(fs.existsSync(logFile)).toBe(false);
    expect((await describeWav(out)).durationMs).toBeGreaterThan(500);
  });

  it('reports Piper failing with its own words', async () => {
    const tts = createTextToSpeech({ piperBin: 'piper', piperVoicesDir: voicesDir });
    await expect(tts.synthesize('please FAIL', 'female', path.join(root, 'x.wav'))).rejects.toThrow(/piper exited with 3: Piper crashed on purpose/);
  });

  it('says which voice file is missing when Piper is forced without it', async () => {
    const empty = fs.mkdtempSync(path.join(root, 'empty-'));
    const tts = createTextToSpeech({ engine: 'piper', piperBin: 'piper', piperVoicesDir: empty });
    expect(tts.engine).toBe('piper');
    await expect(tts.synthesize('Hello', 'male', path.join(root, 'y.wav'))).rejects.toThrow(/Piper voice en_GB-alan-medium not found/);
  });

  it('says what to install when the piper binary is missing', async () => {
    const tts = createTextToSpeech({ engine: 'piper', piperBin: '/nowhere/piper', piperVoicesDir: voicesDir });
    const err = await tts.synthesize('Hello', 'female', path.join(root, 'z.wav')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CommandError);
    expect((err as CommandError).reason).toBe('missing');
    expect((err as Error).message).toMatch(/piper not found: .*set PIPER_BIN, or set TTS_ENGINE=espeak-ng/);
  });
});

describe('engine selection', () => {
  it('falls back to espeak-ng when the voices are not all there', () => {
    const partial = fs.mkdtempSync(path.join(root, 'partial-'));
    fs.writeFileSync(path.join(partial, `${PIPER_VOICES.female}.onnx`), 'x');
    fs.writeFileSync(path.join(partial, `${PIPER_VOICES.female}.onnx.json`), '{}');
    expect(createTextToSpeech({ piperBin: 'piper', piperVoicesDir: partial }).engine).toBe('espeak-ng');
    expect(createTextToSpeech({ piperBin: 'piper' }).engine).toBe('espeak-ng');
  });

  it('falls back to espeak-ng when PIPER_BIN does not resolve', () => {
    expect(createTextToSpeech({ piperBin: 'no-such-piper', piperVoicesDir: voicesDir }).engine).toBe('espeak-ng');
  });

  it('honours TTS_ENGINE=espeak-ng even with Piper installed', () => {
    expect(createTextToSpeech({ engine: 'espeak-ng', piperBin: 'piper', piperVoicesDir: voicesDir }).engine).toBe('espeak-ng');
  });

  it('refuses TTS_ENGINE=piper without PIPER_VOICES_DIR, naming the variable', () => {
    expect(() => createTextToSpeech({ engine: 'piper', piperBin: 'piper' })).toThrow(/PIPER_VOICES_DIR/);
  });
});
