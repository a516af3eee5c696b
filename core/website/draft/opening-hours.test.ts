import { describe, expect, it } from 'vitest';
import { parseOpeningHours } from './opening-hours.js';

const weekdays = (open: string, close: string) => ({ mon: [{ open, close }], tue: [{ open, close }], wed: [{ open, close }], thu: [{ open, close }], fri: [{ open, close }] });

describe('parseOpeningHours: the common UK forms', () => {
  it('reads "Monday to Friday 8am to 6pm" (the rest of the week closed)', () => {
    expect(parseOpeningHours('We are open Monday to Friday 8am to 6pm.')).toEqual({ ...weekdays('08:00', '18:00'), sat: [], sun: [] });
  });
  it('reads "Mon–Fri 08:00–18:00, Sat 9-1, Closed Sundays"', () => {
    expect(parseOpeningHours('Mon–Fri 08:00–18:00, Sat 9-1, Closed Sundays')).toEqual({ ...weekdays('08:00', '18:00'), sat: [{ open: '09:00', close: '13:00' }], sun: [] });
  });
  it('reads half hours, pm times and "closed" after a day', () => {
    expect(parseOpeningHours('Monday - Friday: 8.30am - 5.30pm; Saturday: 9am - 12pm; Sunday: closed')).toEqual({ ...weekdays('08:30', '17:30'), sat: [{ open: '09:00', close: '12:00' }], sun: [] });
  });
  it('reads hours written before the days and weekdays/weekends', () => {
    expect(parseOpeningHours('Open 9am to 5pm weekdays')).toEqual({ ...weekdays('09:00', '17:00'), sat: [], sun: [] });
    expect(parseOpeningHours('Weekdays 7am-7pm, weekends 9am-4pm')).toEqual({ ...weekdays('07:00', '19:00'), sat: [{ open: '09:00', close: '16:00' }], sun: [{ open: '09:00', close: '16:00' }] });
  });
  it('refuses what it cannot read for certain (null, never a guess)', () => {
    expect(parseOpeningHours('Mon-Fri 2-6')).toBeNull(); // 2am or 2pm?
    expect(parseOpeningHours('Closed Sundays')).toBeNull(); // nothing said of the other days
    expect(parseOpeningHours('Open most days, just ring ahead.')).toBeNull();
    expect(parseOpeningHours('Monday to Friday, mornings only')).toBeNull();
    expect(parseOpeningHours('24 hours a day, 7 days a week for emergencies')).toBeNull();
    expect(parseOpeningHours('Mon-Fri 6pm to 8am')).toBeNull();
  });
});
