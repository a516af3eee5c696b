import { describe, expect, it } from 'vitest';
import type { BookingRules } from './booking-rules.js';
import { intersectSpans, personRules } from './person-hours.js';

const nine = () => [{ open: '09:00', close: '17:00' }];
const rules: BookingRules = {
  hours: { mon: nine(), tue: nine(), wed: nine(), thu: nine(), fri: nine(), sat: [], sun: [] },
  holidayNations: ['england-wales'], noticeMinutes: 120, horizonDays: 14, dailyCap: 3,
};

describe('one person\'s booking hours', () => {
  it('is the booking hours when the person has no hours of their own', () => {
    expect(personRules(rules, null)).toBe(rules);
  });

  it('keeps only the times inside both, day by day, and a day off is closed', () => {
    const own = { mon: [{ open: '07:00', close: '12:00' }, { open: '13:00', close: '20:00' }], tue: [], wed: nine(), thu: [], fri: [], sat: [{ open: '09:00', close: '12:00' }], sun: [] };
    const mine = personRules(rules, own);
    expect(mine.hours.mon).toEqual([{ open: '09:00', close: '12:00' }, { open: '13:00', close: '17:00' }]);
    expect(mine.hours.tue).toEqual([]);
    expect(mine.hours.wed).toEqual(nine());
    // Working a Saturday the business takes no bookings on opens nothing.
    expect(mine.hours.sat).toEqual([]);
    expect({ ...mine, hours: rules.hours }).toEqual(rules);
  });

  it('meets spans that only touch with nothing, and runs to the end of the day', () => {
    expect(intersectSpans([{ open: '09:00', close: '12:00' }], [{ open: '12:00', close: '15:00' }])).toEqual([]);
    expect(intersectSpans([{ open: '18:00', close: '23:59' }], [{ open: '20:30', close: '23:59' }])).toEqual([{ open: '20:30', close: '23:59' }]);
  });
});
