import { describe, expect, it } from 'vitest';
import { parseAriTime } from './ari-time.js';

describe('parseAriTime', () => {
  it('reads Asterisk timestamps with a +0000 or other offset', () => {
    expect(parseAriTime('2024-01-01T12:00:00.123+0000')).toBe(Date.UTC(2024, 0, 1, 12, 0, 0, 123));
    expect(parseAriTime('2024-06-01T13:00:00.000+0100')).toBe(Date.UTC(2024, 5, 1, 12, 0, 0, 0));
  });

  it('gives undefined for missing or garbled text', () => {
    expect(parseAriTime(undefined)).toBeUndefined();
    expect(parseAriTime('yesterday')).toBeUndefined();
  });
});
