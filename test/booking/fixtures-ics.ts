// The owner's busy events the CalDAV and iCal-address tests share (issue 41, "Proven by"): a
// weekly series with an exception, an all-day event, an event written in another time zone, and
// one across the October clock change. Each is a whole VCALENDAR, as a server stores it.

const LONDON_TZ = `BEGIN:VTIMEZONE
TZID:Europe/London
BEGIN:DAYLIGHT
TZOFFSETFROM:+0000
TZOFFSETTO:+0100
TZNAME:BST
DTSTART:19700329T010000
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
END:DAYLIGHT
BEGIN:STANDARD
TZOFFSETFROM:+0100
TZOFFSETTO:+0000
TZNAME:GMT
DTSTART:19701025T020000
RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
END:STANDARD
END:VTIMEZONE`;

const PARIS_TZ = `BEGIN:VTIMEZONE
TZID:Europe/Paris
BEGIN:DAYLIGHT
TZOFFSETFROM:+0100
TZOFFSETTO:+0200
TZNAME:CEST
DTSTART:19700329T020000
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
END:DAYLIGHT
BEGIN:STANDARD
TZOFFSETFROM:+0200
TZOFFSETTO:+0100
TZNAME:CET
DTSTART:19701025T030000
RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
END:STANDARD
END:VTIMEZONE`;

const cal = (...parts: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//busy//EN', ...parts, 'END:VCALENDAR', ''].join('\r\n');

export const BUSY_EVENTS: Record<string, string> = {
  // Every Tuesday 10:00–11:00 London from 6 October 2026; the 27 October one moved to 14:00; 10 November skipped.
  'weekly.ics': cal(LONDON_TZ,
    'BEGIN:VEVENT', 'UID:weekly-1', 'DTSTAMP:20261001T000000Z', 'DTSTART;TZID=Europe/London:20261006T100000', 'DTEND;TZID=Europe/London:20261006T110000',
    'RRULE:FREQ=WEEKLY;BYDAY=TU', 'EXDATE;TZID=Europe/London:20261110T100000', 'SUMMARY:Team call', 'END:VEVENT',
    'BEGIN:VEVENT', 'UID:weekly-1', 'DTSTAMP:20261001T000000Z', 'RECURRENCE-ID;TZID=Europe/London:20261027T100000',
    'DTSTART;TZID=Europe/London:20261027T140000', 'DTEND;TZID=Europe/London:20261027T150000', 'SUMMARY:Team call (moved)', 'END:VEVENT'),
  // Wednesday 21 October, all day.
  'all-day.ics': cal('BEGIN:VEVENT', 'UID:all-day-1', 'DTSTAMP:20261001T000000Z', 'DTSTART;VALUE=DATE:20261021', 'DTEND;VALUE=DATE:20261022', 'SUMMARY:Holiday', 'END:VEVENT'),
  // Thursday 22 October 11:00–12:00 Paris time, which is 10:00–11:00 in London.
  'paris.ics': cal(PARIS_TZ, 'BEGIN:VEVENT', 'UID:paris-1', 'DTSTAMP:20261001T000000Z', 'DTSTART;TZID=Europe/Paris:20261022T110000', 'DTEND;TZID=Europe/Paris:20261022T120000', 'SUMMARY:Supplier', 'END:VEVENT'),
  // Saturday 24 October 20:00 BST to Monday 26 October 10:00 GMT, over the night the clocks go back.
  'over-change.ics': cal(LONDON_TZ, 'BEGIN:VEVENT', 'UID:away-1', 'DTSTAMP:20261001T000000Z', 'DTSTART;TZID=Europe/London:20261024T200000', 'DTEND;TZID=Europe/London:20261026T100000', 'SUMMARY:Away', 'END:VEVENT'),
  // Marked free: blocks nothing.
  'free.ics': cal('BEGIN:VEVENT', 'UID:free-1', 'DTSTAMP:20261001T000000Z', 'DTSTART:20261029T090000Z', 'DTEND:20261029T170000Z', 'TRANSP:TRANSPARENT', 'SUMMARY:Maybe', 'END:VEVENT'),
};

/** Monday 19 October 2026, 06:00 UTC (07:00 BST). */
export const BUSY_NOW = new Date('2026-10-19T06:00:00Z');

/** What each wish must be offered with those events, and the default hours (Mon–Fri 09:00–17:30), 60-minute slots. */
export const EXPECTED_OFFERS: Array<[string, string[]]> = [
  // The series at 10:00 BST (09:00 UTC) blocks 09:30–10:30 starts.
  ['the 20th of October morning', ['2026-10-20T08:00:00.000Z', '2026-10-20T10:00:00.000Z', '2026-10-20T10:30:00.000Z']],
  ['the 21st of October', []],
  // 11:00 Paris = 10:00 London = 09:00 UTC.
  ['the 22nd of October morning', ['2026-10-22T08:00:00.000Z', '2026-10-22T10:00:00.000Z', '2026-10-22T10:30:00.000Z']],
  // Away until 10:00 GMT on the Monday after the change.
  ['Monday the 26th of October', ['2026-10-26T10:00:00.000Z', '2026-10-26T10:30:00.000Z', '2026-10-26T11:00:00.000Z']],
  // The 27th's occurrence moved from 10:00 to 14:00 (GMT now): the morning is free, 13:30–14:30 starts are not.
  ['the 27th of October morning', ['2026-10-27T09:00:00.000Z', '2026-10-27T09:30:00.000Z', '2026-10-27T10:00:00.000Z']],
  ['the 27th of October after one', ['2026-10-27T13:00:00.000Z', '2026-10-27T15:00:00.000Z', '2026-10-27T15:30:00.000Z']],
  // The series after the change: 10:00 GMT; the free event on the 29th blocks nothing.
  ['the 3rd of November morning', ['2026-11-03T09:00:00.000Z', '2026-11-03T11:00:00.000Z', '2026-11-03T11:30:00.000Z']],
  ['the 29th of October morning', ['2026-10-29T09:00:00.000Z', '2026-10-29T09:30:00.000Z', '2026-10-29T10:00:00.000Z']],
  // The skipped occurrence (EXDATE) leaves 10 November's morning open.
  ['the 10th of November at ten', ['2026-11-10T10:00:00.000Z', '2026-11-10T10:30:00.000Z']],
];
