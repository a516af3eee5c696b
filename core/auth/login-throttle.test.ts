import { describe, expect, it } from 'vitest';
import { failureDelayMs } from './login-throttle.js';

describe('failureDelayMs', () => {
  it('adds nothing for the first five wrong passwords on an account', () => {
    expect([0, 1, 5].map(failureDelayMs)).toEqual([0, 0, 0]);
  });
  it('then doubles every five failures, never past 10 s', () => {
    expect([6, 10, 11, 16, 21, 26, 31, 36, 1000].map(failureDelayMs)).toEqual([250, 250, 500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
  });
});
