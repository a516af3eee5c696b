import { describe, expect, it } from 'vitest';
import { buildWavHeader, parseWavHeader } from '../../models/audio/wav-header.js';
import { repairWavSizes } from './wav-repair.js';

const audio = Buffer.alloc(16000, 7); // 1 s of 8 kHz 16-bit mono
const wav = (riff: number, data: number) => {
  const h = buildWavHeader({ sampleRate: 8000, channels: 1, bitsPerSample: 16, dataBytes: audio.length });
  h.writeUInt32LE(riff, 4);
  h.writeUInt32LE(data, 40);
  return Buffer.concat([h, audio]);
};

describe('repairing a WAV left by an Asterisk killed mid-recording', () => {
  it('rewrites zero RIFF and data sizes from the bytes the file holds', () => {
    const fixed = repairWavSizes(wav(0, 0));
    expect(fixed.readUInt32LE(4)).toBe(36 + audio.length);
    expect(fixed.readUInt32LE(40)).toBe(audio.length);
    expect(parseWavHeader(fixed).durationMs).toBe(1000);
    expect(fixed.subarray(44).equals(audio)).toBe(true);
  });

  it('leaves a complete file byte for byte as it was', () => {
    const whole = wav(36 + audio.length, audio.length);
    expect(repairWavSizes(whole)).toBe(whole);
  });

  it('leaves what is not a WAV untouched', () => {
    const junk = Buffer.from('not audio at all');
    expect(repairWavSizes(junk)).toBe(junk);
  });
});
