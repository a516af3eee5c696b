import { describe, expect, it } from 'vitest';
import { codeCallLine } from './code-call.js';

describe('the line a landline hears with its code', () => {
  it('names the business and says the code digit by digit, twice', () => {
    expect(codeCallLine('Hale Plumbing', '481207')).toBe("This is Hale Plumbing's answering service. Your code is 4, 8, 1, 2, 0, 7. Again: 4, 8, 1, 2, 0, 7.");
  });
  it('keeps a leading zero and says no business it does not know', () => {
    expect(codeCallLine('  ', '012345')).toBe('This is your answering service. Your code is 0, 1, 2, 3, 4, 5. Again: 0, 1, 2, 3, 4, 5.');
    expect(codeCallLine(null, '900001')).toBe('This is your answering service. Your code is 9, 0, 0, 0, 0, 1. Again: 9, 0, 0, 0, 0, 1.');
  });
});
