import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildWavHeader } from '../../models/audio/wav-header.js';
import { createPromptCache, createPromptFolder, promptKey, type TextToSpeech } from '../../models/tts/index.js';

/** One second of 8 kHz mono 16-bit silence a prompt: 16,044 bytes. */
const silence = () => {
  const data = Buffer.alloc(16_000);
  return Buffer.concat([buildWavHeader({ sampleRate: 8000, channels: 1, bitsPerSample: 16, dataBytes: data.length }), data]);
};
const ONE = 16_044;
/** A prompt this box makes: its WAV and its two G.711 copies (8,000 bytes each). */
const PROMPT = ONE + 2 * 8_000;
const fixedTts: TextToSpeech = {
  engine: 'espeak-ng',
  async synthesize(_text, _voice, outFile) {
    fs.writeFileSync(outFile, silence());
  },
};
const fileOf = (text: string) => `${promptKey('espeak-ng', 'female', text)}.wav`;
/** The prompt's WAV and the G.711 copies that go with it. */
const filesOf = (text: string) => ['wav', 'ulaw', 'alaw'].map((ext) => `${promptKey('espeak-ng', 'female', text)}.${ext}`);

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  dirs = [];
});
function setUp(maxBytes: number, extra: { measureEveryMs?: number } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'prompt-folder-'));
  dirs.push(dataDir);
  const dir = path.join(dataDir, 'prompts');
  fs.mkdirSync(dir);
  const clock = { ms: Date.now() };
  const folder = createPromptFolder({ dir, maxBytes, now: () => clock.ms, ...extra });
  const cache = createPromptCache({ dataDir, tts: fixedTts, folder });
  const age = (name: string, ms: number) => fs.utimesSync(path.join(dir, name), new Date(ms), new Date(ms));
  const present = () => fs.readdirSync(dir).sort();
  return { dir, clock, folder, cache, age, present };
}

describe('one size accountant for the prompts folder (issue 24 item 3)', () => {
  it('keeps the folder under its cap with files dropped in by another writer, measured again periodically', async () => {
    const { dir, folder, cache, age, present } = setUp(PROMPT + 2 * ONE, { measureEveryMs: 20 });
    await cache.get('mine', 'female', 'background');
    age(fileOf('mine'), 5_000_000);
    // Another process (the agent cache of an older build, an operator's copy) writes four more prompts.
    const foreign = ['a', 'b', 'c', 'd'].map((c) => `${c.repeat(64)}.wav`);
    foreign.forEach((name, i) => {
      fs.writeFileSync(path.join(dir, name), silence());
      age(name, 1_000_000 * (i + 1));
    });
    expect(present()).toHaveLength(7);
    folder.start();
    try {
      // Oldest first: "a" and "b" go, the rest (including this box's own, used later) stay.
      await vi.waitFor(() => expect(present()).toEqual([...filesOf('mine'), foreign[2], foreign[3]].sort()));
    } finally {
      folder.stop();
    }
  });

  it('evicts the least recently used prompt, never one a live call is playing or about to play', async () => {
    const { clock, cache, age, present } = setUp(3 * PROMPT);
    const live = await cache.get('Hello caller', 'female'); // a live call's prompt: priority 'call'
    await cache.get('preview one', 'female', 'background');
    await cache.get('preview two', 'female', 'background');
    age(fileOf('Hello caller'), 1_000_000);
    age(fileOf('preview one'), 2_000_000);
    age(fileOf('preview two'), 3_000_000);
    await cache.get('preview three', 'female', 'background');
    // Over the cap by one: the live call's prompt is the oldest, but "preview one" goes instead.
    expect(present()).toEqual([...filesOf('Hello caller'), ...filesOf('preview two'), ...filesOf('preview three')].sort());
    expect(fs.existsSync(live.file)).toBe(true);

    // Once the call has had time to play it to the end, it is an ordinary old prompt again.
    clock.ms += live.durationMs + 31_000;
    await cache.get('preview four', 'female', 'background');
    expect(fs.existsSync(live.file)).toBe(false);
    expect(present()).toEqual([...filesOf('preview two'), ...filesOf('preview three'), ...filesOf('preview four')].sort());
  });

  it('removes a discarded prompt at once, or when the live call holding it has finished with it', async () => {
    const { clock, folder, cache, present } = setUp(100 * ONE);
    await cache.get('old greeting', 'female', 'background');
    await cache.discard('old greeting', 'female');
    expect(present()).toEqual([]);

    const playing = await cache.get('greeting on a call', 'female');
    await cache.discard('greeting on a call', 'female');
    expect(present()).toEqual(filesOf('greeting on a call').sort());
    clock.ms += playing.durationMs + 31_000;
    await folder.measure();
    expect(present()).toEqual([]);
  });
});
