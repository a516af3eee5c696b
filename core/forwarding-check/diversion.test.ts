import { describe, expect, it } from 'vitest';
import { latestDiversion } from './diversion.js';

describe('reading the Diversion header', () => {
  it.each([
    ['unconditional', 'all-calls'],
    ['no-answer', 'unanswered'],
    ['user-busy', 'busy'],
    ['unavailable', 'unreachable'],
    ['deflection', 'unknown'],
  ] as const)('reason=%s is the %s condition', (reason, condition) => {
    expect(latestDiversion([`<sip:+441134960000@carrier.example>;reason=${reason};counter=1`])).toEqual({ number: '+441134960000', reason, condition });
  });

  it('reads a quoted reason, any case, with a display name and a national number', () => {
    expect(latestDiversion(['"Hale, Plumbing" <sip:01134960000@10.0.0.1;user=phone>;counter=1;Reason="No-Answer";privacy=off'])).toEqual({
      number: '+441134960000',
      reason: 'no-answer',
      condition: 'unanswered',
    });
  });

  it('takes the topmost of several diversions in one header', () => {
    const h = '<sip:+447400123456@carrier.example>;reason=user-busy, <sip:+441134960000@carrier.example>;reason=unconditional';
    expect(latestDiversion([h])).toMatchObject({ number: '+447400123456', condition: 'busy' });
  });

  it('takes the first of several headers, skipping empty ones', () => {
    expect(latestDiversion(['', '<tel:+441134960000>;reason=unconditional', '<sip:+447400123456@x>;reason=no-answer'])).toMatchObject({
      number: '+441134960000',
      condition: 'all-calls',
    });
  });

  it('keeps a user part that is not a phone number as sent, and a missing reason as unknown', () => {
    expect(latestDiversion(['<sip:reception@pbx.example>'])).toEqual({ number: 'reception', reason: null, condition: 'unknown' });
    expect(latestDiversion(['sip:+441134960000@carrier.example;reason=no-answer'])).toMatchObject({ number: '+441134960000', condition: 'unanswered' });
  });

  it('is null when there is no Diversion header (a carrier that sends only History-Info)', () => {
    expect(latestDiversion([])).toBeNull();
    expect(latestDiversion([''])).toBeNull();
    expect(latestDiversion([null, undefined])).toBeNull();
  });
});
