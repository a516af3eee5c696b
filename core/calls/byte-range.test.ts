import { describe, expect, it } from 'vitest';
import { contentRange, parseByteRange } from './byte-range.js';

describe('parseByteRange', () => {
  const size = 1000;

  it('serves the whole file without a Range header', () => {
    expect(parseByteRange(undefined, size)).toEqual({ kind: 'full' });
    expect(parseByteRange('', size)).toEqual({ kind: 'full' });
  });

  it.each([
    ['bytes=0-99', 0, 99],
    ['bytes=100-', 100, 999],
    ['bytes=-100', 900, 999],
    ['bytes=990-5000', 990, 999], // an end past the file is clamped
    ['bytes=-5000', 0, 999], // a suffix longer than the file is the whole file
    ['bytes=999-999', 999, 999],
    ['Bytes = 5 - 9', 5, 9],
  ])('%s → bytes %i-%i', (header, start, end) => {
    expect(parseByteRange(header, size)).toEqual({ kind: 'partial', start, end });
  });

  it.each(['bytes=1000-', 'bytes=1000-1001', 'bytes=-0', 'bytes=5000-6000'])('%s is unsatisfiable', (header) => {
    expect(parseByteRange(header, size)).toEqual({ kind: 'unsatisfiable' });
  });

  it('finds nothing to serve in an empty file', () => {
    expect(parseByteRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseByteRange('bytes=-10', 0)).toEqual({ kind: 'unsatisfiable' });
  });

  it.each(['bytes=9-5', 'items=0-5', 'bytes=a-b', 'bytes=-', 'bytes=0-1,5-6', 'bytes=99999999999999999999-'])(
    'ignores %s and serves the whole file',
    (header) => {
      expect(parseByteRange(header, size)).toEqual({ kind: 'full' });
    },
  );

  it('formats Content-Range', () => {
    expect(contentRange(1000, { start: 0, end: 99 })).toBe('bytes 0-99/1000');
    expect(contentRange(1000)).toBe('bytes */1000');
  });
});
