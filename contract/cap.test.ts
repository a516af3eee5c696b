import { describe, expect, it } from 'vitest';
import { cap } from './cap.js';

describe('cap', () => {
  it('leaves short text alone and prefers a sentence end', () => {
    expect(cap('short', 10)).toBe('short');
    expect(cap('One two three. Four five six seven', 20)).toBe('One two three.');
  });
});
