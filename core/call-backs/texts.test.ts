import { describe, expect, it } from 'vitest';
import { answeringMachineMessage, noAnswerText } from './texts.js';

describe('what the box says when a call-back does not reach the caller', () => {
  it('texts after a try that rang out, with the business number as the box shows numbers', () => {
    expect(noAnswerText('+441134960000')).toBe('We tried to ring you back; reply CALL for another try or call us on +44 113 496 0000.');
  });

  it('leaves a message naming the business and its number, and nothing of the caller', () => {
    const message = answeringMachineMessage('Hale Plumbing', '+441134960000');
    expect(message).toBe(
      'Hello, this is the automated assistant for Hale Plumbing, returning a call as asked. Please ring us back on 0 1 1 3, 4 9 6, 0 0 0 0 when it suits you. Thank you, goodbye.',
    );
    expect(answeringMachineMessage('  ', '+441134960000')).toContain('the automated assistant for the business,');
  });
});
