import { describe, expect, it } from 'vitest';
import { trunksAmong } from './trunk-watch.js';

describe('trunksAmong', () => {
  it('leaves out the browsers\' one-call lines (Call my line, listen and take-over), whose endpoints come and go with a call', () => {
    expect(trunksAmong(['trunk', 'tc-7-abc', 'lt-12-def', 'registration'])).toEqual(['trunk', 'registration']);
  });
});
