import { describe, expect, it } from 'vitest';
import { messageForLine, teamMenuLine } from './team-menu.js';

describe('the voicemail team menu’s lines', () => {
  it('offers each person by key, in order', () => {
    expect(teamMenuLine([{ digit: '1', name: 'Sarah' }, { digit: '2', name: 'Tom' }])).toBe('To speak to someone, press 1 for Sarah, 2 for Tom.');
  });

  it('tells the caller whose message they leave, and when that person is not working', () => {
    expect(messageForLine('Tom', false)).toBe("Tom isn't working right now. Please leave a message for Tom after the tone.");
    expect(messageForLine('Tom', true)).toBe('Please leave a message for Tom after the tone.');
  });
});
