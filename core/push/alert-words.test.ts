import { describe, expect, it } from 'vitest';
import { alertBody, alertTitle, callFallbackWords, firstLine, liveUrgentBody } from './alert-words.js';

describe('an alert’s words', () => {
  it('the title is the caller’s name when there is one, else the number as Call Logs shows it, or “Withheld number”', () => {
    expect(alertTitle('+447700900123')).toBe('+44 770 090 0123');
    expect(alertTitle('+447700900123', '  Dan Smith ')).toBe('Dan Smith');
    expect(alertTitle('anonymous')).toBe('Withheld number');
    expect(alertTitle(null)).toBe('Withheld number');
  });

  it('the body is the summary’s first line, with “Urgent: ” in front when urgent', () => {
    const summary = '\n  Dan’s boiler has stopped.  \nHe asks for a call back today.';
    expect(firstLine(summary)).toBe('Dan’s boiler has stopped.');
    expect(alertBody(summary, false, 'New voicemail')).toBe('Dan’s boiler has stopped.');
    expect(alertBody(summary, true, 'New voicemail')).toBe('Urgent: Dan’s boiler has stopped.');
  });

  it('without a summary it says how the call ended', () => {
    expect(alertBody(null, false, callFallbackWords('voicemail', 'voicemail'))).toBe('New voicemail');
    expect(alertBody('', true, callFallbackWords('missed', 'voicemail'))).toBe('Urgent: Missed call');
    expect(callFallbackWords('answered', 'agent')).toBe('Call answered by your assistant');
  });

  it('a long line is cut at a word, with an ellipsis, to fit a lock screen', () => {
    const long = `The caller ${'needs a plumber urgently '.repeat(12)}`;
    const body = alertBody(long, true, 'x');
    expect(body.length).toBeLessThanOrEqual(180);
    expect(body.startsWith('Urgent: The caller needs')).toBe(true);
    expect(body.endsWith('…')).toBe(true);
    expect(body).not.toMatch(/ …$/);
  });

  it('the live alert says the call is in progress, and why it is urgent', () => {
    expect(liveUrgentBody('gas smell in the kitchen')).toBe('Urgent: Call in progress: gas smell in the kitchen');
    expect(liveUrgentBody(null)).toBe('Urgent: Call in progress');
  });
});
