import { describe, expect, it } from 'vitest';
import { backoffDelayMs } from './backoff.js';

const exact = { baseMs: 1000, maxMs: 60_000, jitter: 0 };

describe('backoffDelayMs', () => {
  it('doubles from the base delay after each failure', () => {
    expect([1, 2, 3, 4].map((n) => backoffDelayMs(n, exact))).toEqual([1000, 2000, 4000, 8000]);
  });

  it('never exceeds the bound, however many failures', () => {
    expect(backoffDelayMs(7, exact)).toBe(60_000);
    expect(backoffDelayMs(5000, exact)).toBe(60_000);
  });

  it('spreads retries by the jitter fraction either way, still within the bound', () => {
    const p = { baseMs: 1000, maxMs: 60_000, jitter: 0.2 };
    expect(backoffDelayMs(1, p, () => 0)).toBe(800);
    expect(backoffDelayMs(1, p, () => 1)).toBe(1200);
    expect(backoffDelayMs(10, p, () => 1)).toBe(60_000);
  });

  it('treats a zero or negative failure count as the first', () => {
    expect(backoffDelayMs(0, exact)).toBe(1000);
  });
});
