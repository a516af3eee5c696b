import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseWavHeader } from '../../../models/audio/wav-header.js';
import { writeTurnWav } from './speech-audio.js';

describe('writeTurnWav', () => {
  it('gives two calls’ turns written at once files of their own: one removed once transcribed leaves the other to read', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'turn-wavs-'));
    const caller = (level: number) => new Int16Array(8000).fill(level);
    const [first, second] = await Promise.all([writeTurnWav(dir, caller(100), 8000), writeTurnWav(dir, caller(200), 8000)]);
    expect(first).not.toBe(second);
    fs.rmSync(first!);
    const wav = fs.readFileSync(second!);
    const info = parseWavHeader(wav, wav.length);
    expect({ sampleRate: info.sampleRate, samples: info.dataBytes / 2, first: wav.readInt16LE(info.dataOffset) }).toEqual({ sampleRate: 8000, samples: 8000, first: 200 });
  });
});
