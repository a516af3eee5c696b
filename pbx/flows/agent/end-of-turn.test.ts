import { describe, expect, it } from 'vitest';
import { DEFAULT_END_OF_TURN, endOfTurnSilenceMs, turnEnding } from './end-of-turn.js';

describe('turnEnding', () => {
  it.each([
    'What time do you open on Monday?',
    'Thank you very much, goodbye.',
    "No, that's all, thanks.",
    'Do you work on Saturdays.', // Whisper sometimes writes a question with a full stop
    'Can I book a visit for 3pm?',
    'My boiler is leaking.',
    'Yes.',
  ])('a finished question, statement or closing phrase is complete: %s', (t) => {
    expect(turnEnding(t)).toBe('complete');
  });

  it.each([
    'I would like to, um',
    'Um.',
    'My number is 07700 900',
    'My number is 07700 900 123.',
    'It is flat two, three',
    'The postcode is LS1 4',
    'I need someone to look at the boiler and',
    'I was wondering if you could come out on',
    'I want to book a visit for',
    'Can you come on Tuesday,',
    'So the thing is...',
    'I want to book a visit', // no full stop: Whisper heard the voice stay up
  ])('a hesitation, a dangling word or a number being read out holds the turn: %s', (t) => {
    expect(turnEnding(t)).toBe('hold');
  });

  it.each(['', 'what time do you open on Monday'])('nothing heard, or an unpunctuated question, waits the usual time: "%s"', (t) => {
    expect(turnEnding(t)).toBe('neutral');
  });
});

describe('endOfTurnSilenceMs', () => {
  it('maps complete, neutral and hold to the configured silences', () => {
    expect(endOfTurnSilenceMs('What are your hours?')).toBe(DEFAULT_END_OF_TURN.completeMs);
    expect(endOfTurnSilenceMs('what time do you open')).toBe(DEFAULT_END_OF_TURN.defaultMs);
    expect(endOfTurnSilenceMs('My number is 07700')).toBe(DEFAULT_END_OF_TURN.holdMs);
    expect(DEFAULT_END_OF_TURN.completeMs).toBeLessThan(DEFAULT_END_OF_TURN.defaultMs);
    expect(DEFAULT_END_OF_TURN.holdMs).toBeGreaterThan(DEFAULT_END_OF_TURN.defaultMs);
  });

  it('never shortens the wait while a message is being left', () => {
    expect(endOfTurnSilenceMs('Could you call me back?', DEFAULT_END_OF_TURN, false)).toBe(DEFAULT_END_OF_TURN.defaultMs);
    expect(endOfTurnSilenceMs('My number is 07700', DEFAULT_END_OF_TURN, false)).toBe(DEFAULT_END_OF_TURN.holdMs);
  });
});
