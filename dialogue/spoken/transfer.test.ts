import { describe, expect, it } from 'vitest';
import { aboutText, briefingText, spokenNumber } from './transfer.js';

describe('the owner’s briefing', () => {
  it('reads the caller’s number digit by digit in its usual groups', () => {
    expect(spokenNumber('+447911123456')).toBe('0 7 9 1 1, 1 2 3, 4 5 6');
    expect(spokenNumber('+442079460000')).toBe('0 2 0, 7 9 4 6, 0 0 0 0');
    expect(spokenNumber('anonymous')).toBe('a withheld number');
  });

  it('names the business, the caller and what they said, then the keys', () => {
    expect(briefingText({ businessName: 'Hale Plumbing', callerNumber: '+447911123456', callerWords: 'My boiler is leaking.' })).toBe(
      'Call for Hale Plumbing from 0 7 9 1 1, 1 2 3, 4 5 6. They said: My boiler is leaking. Press 1 to take it, or 2 for voicemail.',
    );
    expect(briefingText({ businessName: null, callerNumber: '+447911123456' })).toBe('Call from 0 7 9 1 1, 1 2 3, 4 5 6. Press 1 to take it, or 2 for voicemail.');
  });

  it('keeps a long story to its first fourteen words', () => {
    const words = 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen';
    expect(aboutText(words)).toBe('one two three four five six seven eight nine ten eleven twelve thirteen fourteen…');
    expect(aboutText('   ')).toBeUndefined();
  });
});
