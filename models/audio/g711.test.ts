import { describe, expect, it } from 'vitest';
import { alawToLinear, encodeG711, ulawToLinear } from './g711.js';

// Every 16-bit sample value once.
const every = Int16Array.from({ length: 65536 }, (_, i) => i - 32768);

const laws = [
  { law: 'ulaw', decode: ulawToLinear, silence: 0xff, top: 0x80, bottom: 0x00 },
  { law: 'alaw', decode: alawToLinear, silence: 0xd5, top: 0xaa, bottom: 0x2a },
] as const;

describe('G.711 as the telephone network codes it', () => {
  it.each(laws)('$law: the ITU code points for silence and full scale', ({ law, silence, top, bottom }) => {
    expect([...encodeG711(law, Int16Array.of(0, 32767, -32768))]).toEqual([silence, top, bottom]);
  });

  it.each(laws)('$law: every sample comes back at its own level, within its segment’s step, in order', ({ law, decode }) => {
    const back = [...encodeG711(law, every)].map(decode);
    let worst = 0;
    let outOfOrder = 0;
    for (let i = 0; i < every.length; i++) {
      const x = every[i]!;
      // A segment's step is 1/16 of its top: the error of a companded code is under one step.
      const step = Math.max(16, 2 ** Math.ceil(Math.log2(Math.abs(x) + 1)) / 16);
      worst = Math.max(worst, Math.abs(back[i]! - x) / step);
      if (i > 0 && back[i]! < back[i - 1]!) outOfOrder++; // louder never codes quieter
    }
    expect(worst).toBeLessThanOrEqual(1);
    expect(outOfOrder).toBe(0);
  });
});
