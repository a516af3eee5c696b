// G.711 µ-law for the test caller, written apart from the product's codec (pbx/media/codecs.ts)
// so that a bug there cannot hide itself on both sides: decoding follows the ITU table
// definition, encoding picks the nearest code by binary search over the decoded values.

const DECODE = new Int16Array(256);
for (let code = 0; code < 256; code++) {
  const u = ~code & 0xff;
  const t = (((u & 0x0f) << 3) + 0x84) << ((u & 0x70) >> 4);
  DECODE[code] = u & 0x80 ? 0x84 - t : t - 0x84;
}

// Codes sorted by the value they decode to, for the nearest-value search.
const SORTED = [...Array(256).keys()].sort((a, b) => DECODE[a]! - DECODE[b]!);

export function ulawDecode(payload: Uint8Array): Int16Array {
  const out = new Int16Array(payload.length);
  for (let i = 0; i < payload.length; i++) out[i] = DECODE[payload[i]!]!;
  return out;
}

export function ulawEncode(samples: Int16Array): Buffer {
  const out = Buffer.alloc(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = nearest(samples[i]!);
  return out;
}

function nearest(v: number): number {
  let lo = 0;
  let hi = SORTED.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (DECODE[SORTED[mid]!]! <= v) lo = mid;
    else hi = mid;
  }
  const a = SORTED[lo]!;
  const b = SORTED[hi]!;
  return Math.abs(DECODE[a]! - v) <= Math.abs(DECODE[b]! - v) ? a : b;
}

/** µ-law's silence: the code that decodes to 0 (0xFF). */
export const ULAW_SILENCE = 0xff;
