import { describe, expect, it } from 'vitest';
import { secondsText } from './seconds.js';

describe('secondsText', () => {
  it('says whole seconds without a decimal and others to the tenth', () => {
    expect(secondsText(2000)).toBe('2 s');
    expect(secondsText(2400)).toBe('2.4 s');
    expect(secondsText(940)).toBe('0.9 s');
  });

  it('rounds up when asked, so a median just over the limit never reads as the limit', () => {
    expect(secondsText(2010, 'up')).toBe('2.1 s');
    expect(secondsText(2000, 'up')).toBe('2 s');
    expect(secondsText(2010)).toBe('2 s');
  });
});
