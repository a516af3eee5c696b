import { describe, expect, it } from 'vitest';
import { isCallWord, optWordOf, startConfirmation, stopConfirmation } from './keywords.js';

describe('optWordOf', () => {
  it('stops on STOP, STOP ALL, UNSUBSCRIBE, END, QUIT and CANCEL in any case and spacing', () => {
    for (const b of ['STOP', 'stop', ' Stop. ', 'STOP ALL', 'stop  all', 'Unsubscribe', 'END', 'quit!', 'CANCEL']) {
      expect(optWordOf(b)?.kind, b).toBe('stop');
    }
  });
  it('starts on START and UNSTOP', () => {
    expect(optWordOf('start')).toEqual({ kind: 'start', word: 'START' });
    expect(optWordOf('UNSTOP')?.kind).toBe('start');
  });
  it('is not fooled by the word inside a sentence', () => {
    for (const b of ['please stop by tomorrow', 'Can you start at 9?', 'the end', 'stopcock leaking', '']) expect(optWordOf(b), b).toBeNull();
  });
});

describe('confirmations', () => {
  it('name the business and say how to undo', () => {
    expect(stopConfirmation('Dan Plumbing')).toBe('You will get no more texts from Dan Plumbing. Reply START to receive texts again.');
    expect(startConfirmation(null)).toBe('You will get texts from this business again. Reply STOP to stop them.');
  });
});

describe('CALL: a reply asking to be rung back (issue 56)', () => {
  it.each(['CALL', 'call', ' Call. ', 'CALL!'])('%j is CALL', (body) => expect(isCallWord(body)).toBe(true));
  it.each(['call me', 'CALLS', 'please call', '', 'STOP'])('%j is not', (body) => expect(isCallWord(body)).toBe(false));
});
