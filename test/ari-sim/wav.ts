import fs from 'node:fs';

// The simulator's own WAV code, written apart from the product's (models/audio/wav-header.ts)
// on purpose: a header bug there must not be repeated here, or both sides would agree on it.

/** What a RIFF/WAVE header says about its audio. */
export interface WavInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** The PCM bytes of the `data` chunk. */
  data: Buffer;
  durationMs: number;
}

/** Parses a RIFF/WAVE buffer chunk by chunk (espeak-ng and sox both add chunks besides fmt/data). */
export function parseWav(buf: Buffer): WavInfo {
  if (buf.length < 12 || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('not a RIFF/WAVE file');
  }
  let offset = 12;
  let fmt: { sampleRate: number; channels: number; bitsPerSample: number } | undefined;
  let data: Buffer | undefined;
  while (offset + 8 <= buf.length) {
    const id = buf.toString('ascii', offset, offset + 4);
    let size = buf.readUInt32LE(offset + 4);
    const body = offset + 8;
    // Streaming writers leave 0 or 0xFFFFFFFF in the data size: take the rest of the file.
    if (id === 'data' && (size === 0 || size === 0xffffffff || body + size > buf.length)) size = buf.length - body;
    if (id === 'fmt ') {
      fmt = { channels: buf.readUInt16LE(body + 2), sampleRate: buf.readUInt32LE(body + 4), bitsPerSample: buf.readUInt16LE(body + 14) };
    } else if (id === 'data') {
      data = buf.subarray(body, body + size);
    }
    offset = body + size + (size % 2);
  }
  if (!fmt || !data) throw new Error('WAV file has no fmt or data chunk');
  const bytesPerSecond = fmt.sampleRate * fmt.channels * (fmt.bitsPerSample / 8);
  return { ...fmt, data, durationMs: Math.round((data.length / bytesPerSecond) * 1000) };
}

export function readWav(file: string): WavInfo {
  return parseWav(fs.readFileSync(file));
}

/** 8 kHz mono signed 16-bit: what Asterisk writes for format=wav. */
export const SLIN8 = { sampleRate: 8000, channels: 1, bitsPerSample: 16 } as const;

/** A PCM WAV as Asterisk writes it: RIFF/WAVE holding a 16-byte `fmt ` chunk, then `data`. */
export function encodeWav(pcm: Buffer, format: { sampleRate: number; channels: number; bitsPerSample: number } = SLIN8): Buffer {
  const word = (n: number) => Buffer.from([n & 0xff, (n >> 8) & 0xff]);
  const dword = (n: number) => Buffer.concat([word(n & 0xffff), word(n >>> 16)]);
  const chunk = (id: string, body: Buffer) => Buffer.concat([Buffer.from(id, 'ascii'), dword(body.length), body]);
  const frameBytes = format.channels * (format.bitsPerSample / 8);
  const fmt = Buffer.concat([word(1), word(format.channels), dword(format.sampleRate), dword(format.sampleRate * frameBytes), word(frameBytes), word(format.bitsPerSample)]);
  const body = Buffer.concat([Buffer.from('WAVE', 'ascii'), chunk('fmt ', fmt), chunk('data', pcm)]);
  return chunk('RIFF', body);
}

/** Silence of the given length in 8 kHz mono 16-bit PCM. */
export function silencePcm(ms: number): Buffer {
  return Buffer.alloc(Math.round((ms / 1000) * SLIN8.sampleRate) * 2);
}

/** Root-mean-square level of 16-bit PCM: tells speech from silence in tests. */
export function rms(pcm: Buffer): number {
  const n = Math.floor(pcm.length / 2);
  if (n === 0) return 0;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const s = pcm.readInt16LE(i * 2);
    sum += s * s;
  }
  return Math.sqrt(sum / n);
}
