import { describe, expect, it } from 'vitest';
import { millis, percent } from './quality';

describe('quality figures', () => {
  it('shows a share as a percentage, and nothing measured as n/a rather than 0', () => {
    expect(percent(0.125)).toBe('12.5%');
    expect(percent(0)).toBe('0.0%');
    expect(percent(null)).toBe('n/a');
  });

  it('shows latency in ms, or seconds from one second up', () => {
    expect(millis(840.4)).toBe('840 ms');
    expect(millis(2450)).toBe('2.5 s');
    expect(millis(null)).toBe('n/a');
  });
});
