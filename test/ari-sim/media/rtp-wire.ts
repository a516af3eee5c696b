import { ulawDecode, ulawEncode } from '../../pbx-real/g711.js';

// The simulator's own RTP and payload code, written apart from the product's
// (pbx/media/rtp-packet.ts, pbx/media/codecs.ts) so that a bug there cannot hide itself by
// being made on both sides of the wire. µ-law is the real-PBX test caller's codec
// (test/pbx-real/g711.ts); L16 is RFC 3551 §4.5.11 (big-endian).

export type SimCodec = 'ulaw' | 'slin16';

export function decodeFrame(codec: SimCodec, payload: Buffer): Int16Array {
  if (codec === 'ulaw') return ulawDecode(payload);
  const out = new Int16Array(payload.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = (payload[2 * i]! << 24) >> 16 | payload[2 * i + 1]!;
  return out;
}

export function encodeFrame(codec: SimCodec, samples: Int16Array): Buffer {
  if (codec === 'ulaw') return ulawEncode(samples);
  const out = Buffer.alloc(samples.length * 2);
  samples.forEach((v, i) => {
    out[2 * i] = (v >> 8) & 0xff;
    out[2 * i + 1] = v & 0xff;
  });
  return out;
}

/** The largest difference µ-law allows between a sample and what comes out after the trip (one quantisation step). */
export function codecTolerance(codec: SimCodec, sample: number): number {
  if (codec === 'slin16') return 0;
  const m = Math.min(Math.abs(sample), 32767) + 132;
  return 1 << (Math.floor(Math.log2(m)) - 3); // the step of the segment the sample falls in
}

/** RTP (RFC 3550 §5.1): payload type and payload, or null for anything that is not a version-2 RTP packet. */
export function readRtp(packet: Buffer): { payloadType: number; payload: Buffer } | null {
  if (packet.length < 12 || packet[0]! >>> 6 !== 2) return null;
  const csrcs = packet[0]! & 0x0f;
  let start = 12 + 4 * csrcs;
  if (packet[0]! & 0x10) {
    if (packet.length < start + 4) return null;
    start += 4 + 4 * packet.readUInt16BE(start + 2);
  }
  const end = packet[0]! & 0x20 ? packet.length - packet[packet.length - 1]! : packet.length;
  if (start > end) return null;
  return { payloadType: packet[1]! & 0x7f, payload: packet.subarray(start, end) };
}

export function writeRtp(p: { payloadType: number; sequence: number; timestamp: number; ssrc: number; payload: Buffer }): Buffer {
  const out = Buffer.alloc(12 + p.payload.length);
  out[0] = 2 << 6;
  out[1] = p.payloadType & 0x7f;
  out.writeUInt16BE(p.sequence & 0xffff, 2);
  out.writeUInt32BE(p.timestamp >>> 0, 4);
  out.writeUInt32BE(p.ssrc >>> 0, 8);
  p.payload.copy(out, 12);
  return out;
}

/** Rate change by straight lines between neighbouring samples: speech keeps its levels and timing. */
export function changeRate(samples: Int16Array, from: number, to: number): Int16Array {
  if (from === to) return samples;
  const out = new Int16Array(Math.floor((samples.length * to) / from));
  const last = samples.length - 1;
  for (let i = 0; i < out.length; i++) {
    const at = (i * from) / to;
    const left = Math.floor(at);
    const a = samples[left]!;
    const b = samples[Math.min(left + 1, last)]!;
    out[i] = Math.round(a + (b - a) * (at - left));
  }
  return out;
}

/** Root-mean-square level of a frame. */
export function level(samples: Int16Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (const s of samples) sum += s * s;
  return Math.sqrt(sum / samples.length);
}
