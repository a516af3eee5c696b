import { describe, expect, it } from 'vitest';
import { minutesFromNow } from './in-a-while.js';

describe('a wait from now, as callers say it', () => {
  it.each([
    ['ring me back in an hour', 60],
    ['in half an hour', 30],
    ['in about 20 minutes please', 20],
    ['in ten mins', 10],
    ['in a couple of hours', 120],
    ['in two hours', 120],
    ['in an hour and a half', 90],
  ])('%s → %i minutes', (words, minutes) => {
    expect(minutesFromNow(words)).toBe(minutes);
  });

  it('reads no wait from words that name none', () => {
    expect(minutesFromNow('after four')).toBeUndefined();
    expect(minutesFromNow('in the morning')).toBeUndefined();
    expect(minutesFromNow('as soon as you can')).toBeUndefined();
  });
});
