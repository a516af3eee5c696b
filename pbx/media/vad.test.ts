import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEnergyVad, createWebRtcVad, type VoiceActivityDetector } from './vad.js';

/** Real speech: espeak-ng (en-GB) at 16 kHz mono through sox. */
function speech16k(text: string): Int16Array {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vad-'));
  try {
    execFileSync('espeak-ng', ['-v', 'en-gb', '-w', path.join(dir, 'a.wav'), text]);
    execFileSync('sox', [path.join(dir, 'a.wav'), '-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', '-t', 'raw', path.join(dir, 'a.raw')]);
    const raw = fs.readFileSync(path.join(dir, 'a.raw'));
    return new Int16Array(raw.buffer, raw.byteOffset, raw.length >> 1).slice();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function speechFraction(vad: VoiceActivityDetector, pcm: Int16Array): number {
  let yes = 0;
  let n = 0;
  for (let i = 0; i + 320 <= pcm.length; i += 320, n++) if (vad.isSpeech(pcm.subarray(i, i + 320))) yes++;
  return yes / n;
}

describe('VAD on real speech', () => {
  const words = speech16k('Hello, what time do you open on Saturday morning?');
  const silence = new Int16Array(16000 * 2);
  const hiss = Int16Array.from({ length: 16000 * 2 }, () => Math.round((Math.random() - 0.5) * 60));

  for (const [name, make] of [
    ['WebRTC VAD (libfvad WASM)', () => createWebRtcVad({ sampleRate: 16000, frameSamples: 320, mode: 2 })],
    ['energy fallback', async () => createEnergyVad()],
  ] as const) {
    it(`${name}: speech is mostly speech, silence and faint hiss are not`, async () => {
      const vad = await make();
      speechFraction(vad, silence); // settle
      expect(speechFraction(vad, words)).toBeGreaterThan(0.5);
      expect(speechFraction(vad, silence)).toBeLessThan(0.05);
      expect(speechFraction(vad, hiss)).toBeLessThan(0.1);
      vad.close();
    });
  }
});
