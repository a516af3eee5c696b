import { describe, expect, it } from 'vitest';
import { answeredByNote, pressedNote } from './team-notes.js';

describe('the routing note Call Details shows', () => {
  it('names who answered a call the team was rung for', () => {
    expect(answeredByNote('Tom')).toBe('Answered by Tom');
  });

  it('says what became of a key pressed in the voicemail menu', () => {
    expect(pressedNote('2', 'Tom', 'put-through')).toBe('Pressed 2 for Tom: put through to Tom');
    expect(pressedNote('2', 'Tom', 'not-working')).toBe('Pressed 2 for Tom: not working now, message taken for Tom');
    expect(pressedNote('1', 'Sarah', 'no-answer')).toBe('Pressed 1 for Sarah: did not take the call, message taken for Sarah');
  });
});
