import { describe, expect, it } from 'vitest';
import { icalFoundSentence } from './ical-found.js';

const NOW = Date.parse('2026-12-01T09:00:00Z');
const H = 3_600_000;

describe('what a saved iCal address was found to hold', () => {
  it('counts the busy times of the next four weeks and names the next one on the London clock', () => {
    const busy = [
      { start: Date.parse('2026-12-03T10:00:00Z'), end: Date.parse('2026-12-03T11:00:00Z') },
      { start: NOW - 48 * H, end: NOW - 47 * H },
      { start: Date.parse('2026-12-02T14:30:00Z'), end: Date.parse('2026-12-02T15:00:00Z') },
      { start: NOW + 40 * 24 * H, end: NOW + 41 * 24 * H },
    ];
    expect(icalFoundSentence(busy, NOW)).toBe('Your calendar was read: 2 busy times in the next 4 weeks, the next Wed 2 Dec, 14:30. Those times are not offered to callers.');
  });

  it('says one busy time in the singular, and one under way as now', () => {
    expect(icalFoundSentence([{ start: NOW - H, end: NOW + H }], NOW)).toBe('Your calendar was read: 1 busy time in the next 4 weeks, one now. Those times are not offered to callers.');
  });

  it('an empty calendar asks the owner to check the address', () => {
    expect(icalFoundSentence([], NOW)).toBe('Your calendar was read: nothing is busy in the next 4 weeks. If that is wrong, check you pasted the address of the calendar you use.');
  });
});
