// Payload codecs for the external media channel. ulaw is G.711 µ-law at 8 kHz on static
// payload type 0: the one the agent uses, because Asterisk 20.17 maps only static payload
// types on receive. slin16 over RTP is L16 (RFC 3551 §4.5.11, big-endian) on dynamic type
// 118: Asterisk sends it but drops what comes back on 118, so it is kept for reading only.

// One G.711 codec for the agent's audio and the prompts' pre-encoded copies.
import { linearToUlaw, ulawToLinear } from '../../models/audio/g711.js';

export type MediaFormat = 'slin16' | 'ulaw';

export interface FormatInfo {
  sampleRate: number;
  /** Samples in one 20 ms frame. */
  frameSamples: number;
  /** Payload type we send. Asterisk picks a dynamic type for slin16 and accepts what it negotiated; it reads by format. */
  payloadType: number;
}

export const FORMATS: Record<MediaFormat, FormatInfo> = {
  slin16: { sampleRate: 16000, frameSamples: 320, payloadType: 118 },
  ulaw: { sampleRate: 8000, frameSamples: 160, payloadType: 0 },
};

export function decodePayload(format: MediaFormat, payload: Buffer): Int16Array {
  if (format === 'ulaw') {
    const out = new Int16Array(payload.length);
    for (let i = 0; i < payload.length; i++) out[i] = ulawToLinear(payload[i]!);
    return out;
  }
  const n = payload.length >> 1;
  const out = new Int16Array(n);
  for (let i = 0; i < n; i++) out[i] = payload.readInt16BE(i * 2);
  return out;
}

export function encodePayload(format: MediaFormat, samples: Int16Array): Buffer {
  if (format === 'ulaw') {
    const out = Buffer.alloc(samples.length);
    for (let i = 0; i < samples.length; i++) out[i] = linearToUlaw(samples[i]!);
    return out;
  }
  const out = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) out.writeInt16BE(samples[i]!, i * 2);
  return out;
}

// One resampler for the agent's audio and the recordings sent to Whisper (models/audio/resample.ts).
export { resample } from '../../models/audio/resample.js';

/** Root-mean-square level of a frame (0 … 32768). */
export function rms(samples: Int16Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i]! * samples[i]!;
  return Math.sqrt(sum / samples.length);
}
