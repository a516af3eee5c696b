import { describe, expect, it } from 'vitest';
import { isWorking } from './working-now.js';

const day = (open: string, close: string) => [{ open, close }];
const week = (spans: { open: string; close: string }[]) => ({ mon: spans, tue: spans, wed: spans, thu: spans, fri: spans, sat: [], sun: [] });
const business = { hoursEnabled: true, hours: week(day('08:00', '18:00')), holidayNations: ['england-wales' as const] };

describe('who is working now (London time)', () => {
  // Tuesday 2 June 2026, summer time: 08:30 UTC is 09:30 in London.
  const tuesdayMorning = new Date('2026-06-02T08:30:00Z');

  it('a member with their own hours works inside them, whatever the business hours', () => {
    expect(isWorking({ hours: week(day('09:00', '12:00')) }, business, tuesdayMorning)).toBe(true);
    expect(isWorking({ hours: week(day('13:00', '17:00')) }, business, tuesdayMorning)).toBe(false);
  });

  it('reads their hours in London time, not UTC (08:30 UTC in June is 09:30)', () => {
    expect(isWorking({ hours: week(day('09:15', '10:00')) }, business, tuesdayMorning)).toBe(true);
  });

  it('a member without hours works the business opening hours', () => {
    expect(isWorking({ hours: null }, business, tuesdayMorning)).toBe(true);
    expect(isWorking({ hours: null }, business, new Date('2026-06-06T10:00:00Z'))).toBe(false); // a Saturday
  });

  it("a bank holiday the business keeps is a day off for everyone, their own hours too", () => {
    const springBankHoliday = new Date('2026-05-25T09:00:00Z'); // a Monday
    expect(isWorking({ hours: week(day('08:00', '18:00')) }, business, springBankHoliday)).toBe(false);
    expect(isWorking({ hours: null }, business, springBankHoliday)).toBe(false);
    expect(isWorking({ hours: week(day('08:00', '18:00')) }, { ...business, holidayNations: [] }, springBankHoliday)).toBe(true);
  });
});
