import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildWavHeader, parseWavHeader } from '../audio/wav-header.js';
import { resampleTo16kMono } from './resample.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'resample-'));
  dirs.push(d);
  return d;
};

/** A second of a 440 Hz tone as Asterisk records it: 8 kHz mono 16-bit PCM. */
function telephoneTone(file: string): Int16Array {
  const pcm = Int16Array.from({ length: 8000 }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 8000)));
  fs.writeFileSync(file, Buffer.concat([buildWavHeader({ sampleRate: 8000, channels: 1, bitsPerSample: 16, dataBytes: pcm.byteLength }), Buffer.from(pcm.buffer)]));
  return pcm;
}

describe('resampleTo16kMono (the recording Whisper reads)', () => {
  it('doubles a telephone recording to 16 kHz mono PCM of the same length, keeping every original sample', async () => {
    const d = tmp();
    const pcm = telephoneTone(path.join(d, 'in.wav'));
    const out = Buffer.from(await resampleTo16kMono(path.join(d, 'in.wav')));
    const info = parseWavHeader(out, out.length);
    expect(info).toMatchObject({ audioFormat: 1, sampleRate: 16000, channels: 1, bitsPerSample: 16, durationMs: 1000 });
    const up = new Int16Array(Uint8Array.from(out.subarray(info.dataOffset)).buffer);
    expect(up.filter((_, i) => i % 2 === 0)).toEqual(pcm);
  });

  it('sends what is not telephone audio through sox, and sox’s complaint about an unreadable file is the error', async () => {
    const d = tmp();
    fs.writeFileSync(path.join(d, 'bad.wav'), 'not audio at all');
    await expect(resampleTo16kMono(path.join(d, 'bad.wav'))).rejects.toThrow(/the recording could not be read/);
    // 22.05 kHz stereo (what a phone app might upload) comes out as 16 kHz mono by sox.
    expect(spawnSync('sox', ['-n', '-r', '22050', '-c', '2', '-b', '16', path.join(d, 'wide.wav'), 'synth', '0.5', 'sine', '440']).status).toBe(0);
    const out = Buffer.from(await resampleTo16kMono(path.join(d, 'wide.wav')));
    expect(parseWavHeader(out, out.length)).toMatchObject({ sampleRate: 16000, channels: 1, durationMs: 500 });
  });
});
