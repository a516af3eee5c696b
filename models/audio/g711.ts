// G.711 (ITU-T G.711, as in Sun's reference g711.c that Asterisk and sox also follow): the two
// 8 kHz telephone codecs. µ-law is the agent's external media codec; both laws are written
// beside each prompt so Asterisk plays it in a trunk's own codec, with no translator per frame.

const BIAS = 0x84;
const CLIP = 32635;

export function linearToUlaw(sample: number): number {
  let s = Math.max(-CLIP, Math.min(CLIP, sample));
  const sign = s < 0 ? 0x80 : 0;
  if (s < 0) s = -s;
  s += BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (s >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

export function ulawToLinear(byte: number): number {
  const u = ~byte & 0xff;
  const exponent = (u >> 4) & 0x07;
  const mantissa = u & 0x0f;
  const magnitude = (((mantissa << 3) + BIAS) << exponent) - BIAS;
  return u & 0x80 ? -magnitude : magnitude;
}

/** The top of each A-law segment, in 13-bit magnitude. */
const ALAW_SEGMENT_END = [0x1f, 0x3f, 0x7f, 0xff, 0x1ff, 0x3ff, 0x7ff, 0xfff];

function linearToAlaw(sample: number): number {
  let v = sample >> 3;
  let mask = 0xd5;
  if (v < 0) {
    mask = 0x55;
    v = -v - 1;
  }
  const seg = ALAW_SEGMENT_END.findIndex((end) => v <= end);
  if (seg < 0) return 0x7f ^ mask;
  const quant = (seg < 2 ? v >> 1 : v >> seg) & 0x0f;
  return ((seg << 4) | quant) ^ mask;
}

export function alawToLinear(byte: number): number {
  const a = byte ^ 0x55;
  const seg = (a & 0x70) >> 4;
  let t = (a & 0x0f) << 4;
  t += seg === 0 ? 8 : 0x108;
  if (seg > 1) t <<= seg - 1;
  return a & 0x80 ? t : -t;
}

export type G711Law = 'ulaw' | 'alaw';

/** 16-bit samples → one G.711 byte each. */
export function encodeG711(law: G711Law, samples: Int16Array): Buffer {
  const encode = law === 'ulaw' ? linearToUlaw : linearToAlaw;
  const out = Buffer.alloc(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = encode(samples[i]!);
  return out;
}
