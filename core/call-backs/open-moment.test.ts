import { describe, expect, it } from 'vitest';
import { nextOpenMoment, type BusinessHours } from './open-moment.js';

// Mornings and afternoons with a lunch hour between; Saturday until midnight (23:59 in the form).
const split = () => [
  { open: '13:00', close: '17:00' },
  { open: '09:00', close: '12:00' },
];
const HOURS: BusinessHours = {
  hours: { mon: split(), tue: split(), wed: split(), thu: split(), fri: split(), sat: [{ open: '18:00', close: '23:59' }], sun: [] },
  holidayNations: ['england-wales'],
};
const next = (iso: string) => nextOpenMoment(HOURS, new Date(iso))?.toISOString() ?? null;

describe('the next moment the business is open', () => {
  it('is the moment itself when open, the end of lunch at lunch, the next morning after closing', () => {
    expect(next('2026-12-03T10:07:00Z')).toBe('2026-12-03T10:07:00.000Z');
    expect(next('2026-12-03T12:00:00Z')).toBe('2026-12-03T13:00:00.000Z');
    expect(next('2026-12-03T17:00:00Z')).toBe('2026-12-04T09:00:00.000Z');
    expect(next('2026-12-03T06:00:00Z')).toBe('2026-12-03T09:00:00.000Z');
  });

  it('runs a span written to 23:59 to midnight, then skips the closed Sunday', () => {
    expect(next('2026-12-05T23:59:30Z')).toBe('2026-12-05T23:59:30.000Z');
    expect(next('2026-12-06T00:00:00Z')).toBe('2026-12-07T09:00:00.000Z');
  });

  it('is none when nothing opens within two weeks', () => {
    const shut: BusinessHours = { hours: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] }, holidayNations: [] };
    expect(nextOpenMoment(shut, new Date('2026-12-03T10:00:00Z'))).toBeNull();
  });
});
