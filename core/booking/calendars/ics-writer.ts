import ICAL from 'ical.js';

// The box's bookings as iCalendar text (RFC 5545), written with ical.js (the same maintained
// library that parses the owner's calendar): one event per booking for CalDAV and the .ics link,
// and the private feed of all of them. Times in UTC, so every client shows them right.

export interface IcsEvent {
  uid: string;
  summary: string;
  description?: string;
  start: Date;
  end: Date;
  stamp: Date;
  cancelled?: boolean;
}

const utc = (d: Date) => ICAL.Time.fromJSDate(d, true);

function vevent(e: IcsEvent): ICAL.Component {
  const c = new ICAL.Component('vevent');
  c.addPropertyWithValue('uid', e.uid);
  c.addPropertyWithValue('dtstamp', utc(e.stamp));
  c.addPropertyWithValue('dtstart', utc(e.start));
  c.addPropertyWithValue('dtend', utc(e.end));
  c.addPropertyWithValue('summary', e.summary);
  if (e.description) c.addPropertyWithValue('description', e.description);
  c.addPropertyWithValue('status', e.cancelled ? 'CANCELLED' : 'CONFIRMED');
  return c;
}

export function calendarIcs(events: readonly IcsEvent[], name?: string): string {
  const cal = new ICAL.Component('vcalendar');
  cal.addPropertyWithValue('prodid', '-//Call-answering appliance//Bookings//EN');
  cal.addPropertyWithValue('version', '2.0');
  cal.addPropertyWithValue('calscale', 'GREGORIAN');
  if (name) cal.addPropertyWithValue('x-wr-calname', name);
  for (const e of events) cal.addSubcomponent(vevent(e));
  return cal.toString();
}
