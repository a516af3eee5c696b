import { describe, expect, it } from 'vitest';
import { buildWavHeader, isTelephoneWav, parseWavHeader, WavFormatError } from './wav-header.js';

const telephone = { sampleRate: 8000, channels: 1, bitsPerSample: 16 };

function chunk(id: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(id, 0, 'ascii');
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body, body.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}

describe('parseWavHeader', () => {
  it('reads format and duration from a canonical 44-byte header', () => {
    const wav = Buffer.concat([buildWavHeader({ ...telephone, dataBytes: 16000 }), Buffer.alloc(16000)]);
    const info = parseWavHeader(wav, wav.length);
    expect(info).toMatchObject({ audioFormat: 1, sampleRate: 8000, channels: 1, bitsPerSample: 16, dataOffset: 44, dataBytes: 16000 });
    expect(info.durationMs).toBe(1000);
    expect(isTelephoneWav(info)).toBe(true);
  });

  it('skips extra chunks, including an odd-sized one with its pad byte', () => {
    const fmt = buildWavHeader({ sampleRate: 22050, channels: 2, bitsPerSample: 16, dataBytes: 0 }).subarray(12, 36);
    const list = chunk('LIST', Buffer.from('INFOISFT'.padEnd(13, 'x')));
    const data = chunk('data', Buffer.alloc(22050 * 4 * 2));
    const body = Buffer.concat([Buffer.from('WAVE'), fmt, list, data]);
    const riff = Buffer.alloc(8);
    riff.write('RIFF', 0, 'ascii');
    riff.writeUInt32LE(body.length, 4);
    const info = parseWavHeader(Buffer.concat([riff, body]));
    expect(info.sampleRate).toBe(22050);
    expect(info.channels).toBe(2);
    expect(info.durationMs).toBe(2000);
    expect(isTelephoneWav(info)).toBe(false);
  });

  it('uses the file size when a streaming writer left the data size unset', () => {
    const head = buildWavHeader({ ...telephone, dataBytes: 0 });
    head.writeUInt32LE(0xffffffff, 40);
    expect(parseWavHeader(head, 44 + 8000).durationMs).toBe(500);
    expect(() => parseWavHeader(head)).toThrow(/size is unknown/);
  });

  it('clamps a data size larger than the file (a truncated recording)', () => {
    const head = buildWavHeader({ ...telephone, dataBytes: 160000 });
    expect(parseWavHeader(head, 44 + 1601).dataBytes).toBe(1600);
  });

  it('rejects what is not a WAV, with a message saying so', () => {
    expect(() => parseWavHeader(Buffer.from('ID3\u0003 definitely an mp3'))).toThrow(WavFormatError);
    expect(() => parseWavHeader(Buffer.from('RIFF\0\0\0\0WAVE'))).toThrow(/fmt chunk not found/);
    const noFmt = Buffer.concat([Buffer.from('RIFF\0\0\0\0WAVE'), chunk('data', Buffer.alloc(4))]);
    expect(() => parseWavHeader(noFmt)).toThrow(/before its fmt/);
  });
});
