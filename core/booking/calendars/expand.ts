import ICAL from 'ical.js';
import { DAY_MS } from '../../time/london-time.js';
import { londonWallToUtc } from '../rules/london-wall.js';
import type { Interval } from '../rules/slots.js';

// The owner's calendar as busy times: iCalendar text (a pasted iCal address's feed, or CalDAV
// objects) parsed and expanded on the box with ical.js, because many servers cannot expand or
// answer free-busy themselves. Recurring series with their exceptions (RECURRENCE-ID, EXDATE),
// all-day events (the whole London day) and other time zones (their VTIMEZONE) included; events
// marked free (TRANSP:TRANSPARENT) or cancelled block nothing.

/** Occurrences looked at per series at most, so a pathological RRULE cannot stall an offer. */
const MAX_OCCURRENCES = 20_000;

/** The instant of an iCalendar time: all-day dates and floating times are read on the London wall clock. */
function instantOf(t: ICAL.Time): number {
  if (t.isDate) return londonWallToUtc(Math.floor(Date.UTC(t.year, t.month - 1, t.day) / DAY_MS), 0);
  const tzid = t.zone?.tzid;
  if (tzid && tzid !== 'floating') return t.toUnixTime() * 1000;
  const named = (t as unknown as { timezone?: string }).timezone;
  if (named && named !== 'floating') return zonedWallToUtc(named, t);
  return londonWallToUtc(Math.floor(Date.UTC(t.year, t.month - 1, t.day) / DAY_MS), t.hour * 60 + t.minute) + t.second * 1000;
}

/** A TZID without a VTIMEZONE (not allowed, but written by some exporters): the platform's zone database, when it knows the name. */
function zonedWallToUtc(tzid: string, t: ICAL.Time): number {
  const wall = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  try {
    const fmt = new Intl.DateTimeFormat('en-GB', { timeZone: tzid, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    const offsetAt = (utc: number) => {
      const p = Object.fromEntries(fmt.formatToParts(new Date(utc)).map((x) => [x.type, Number(x.value)]));
      return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - utc;
    };
    const first = wall - offsetAt(wall);
    return wall - offsetAt(first);
  } catch {
    return londonWallToUtc(Math.floor(wall / DAY_MS), t.hour * 60 + t.minute);
  }
}

const blocks = (c: ICAL.Component) =>
  String(c.getFirstPropertyValue('transp') ?? '').toUpperCase() !== 'TRANSPARENT' && String(c.getFirstPropertyValue('status') ?? '').toUpperCase() !== 'CANCELLED';

/** Busy intervals overlapping [from, to) in the given iCalendar texts. Unparseable text throws (the caller says which calendar). */
export function busyFromIcs(texts: readonly string[], from: number, to: number): Interval[] {
  const out: Interval[] = [];
  for (const text of texts) {
    const root = new ICAL.Component(ICAL.parse(text));
    const calendars = root.name === 'vcalendar' ? [root] : root.getAllSubcomponents('vcalendar');
    for (const cal of calendars) {
      // Register this calendar's zones before any time is read, so DTSTART;TZID=… resolves to them.
      for (const vtz of cal.getAllSubcomponents('vtimezone')) {
        const zone = new ICAL.Timezone(vtz);
        if (!ICAL.TimezoneService.has(zone.tzid)) ICAL.TimezoneService.register(zone);
      }
      const byUid = new Map<string, { master?: ICAL.Event; exceptions: ICAL.Component[] }>();
      const lone: ICAL.Component[] = [];
      for (const vevent of cal.getAllSubcomponents('vevent')) {
        const uid = String(vevent.getFirstPropertyValue('uid') ?? '');
        if (!uid) { lone.push(vevent); continue; }
        const entry = byUid.get(uid) ?? { exceptions: [] };
        if (vevent.hasProperty('recurrence-id')) entry.exceptions.push(vevent);
        else entry.master = new ICAL.Event(vevent);
        byUid.set(uid, entry);
      }
      for (const { master, exceptions } of byUid.values()) {
        if (!master) { lone.push(...exceptions); continue; }
        for (const ex of exceptions) master.relateException(ex);
        if (!master.isRecurring()) {
          if (blocks(master.component)) push(out, instantOf(master.startDate), instantOf(master.endDate ?? master.startDate), from, to, master.startDate.isDate);
          continue;
        }
        const it = master.iterator();
        for (let n = 0, next = it.next(); next && n < MAX_OCCURRENCES; n++, next = it.next()) {
          const d = master.getOccurrenceDetails(next);
          const start = instantOf(d.startDate);
          if (start >= to) break;
          if (blocks(d.item.component)) push(out, start, instantOf(d.endDate), from, to, d.startDate.isDate);
        }
      }
      for (const c of lone) {
        const e = new ICAL.Event(c);
        if (blocks(c)) push(out, instantOf(e.startDate), instantOf(e.endDate ?? e.startDate), from, to, e.startDate.isDate);
      }
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

function push(out: Interval[], start: number, end: number, from: number, to: number, allDay: boolean): void {
  // An all-day event without DTEND is that one day (RFC 5545 §3.6.1); a timed one without an end is an instant.
  const stop = end > start ? end : allDay ? londonWallToUtc(Math.floor((start + 12 * 3_600_000) / DAY_MS) + 1, 0) : start;
  if (stop > from && start < to && stop > start) out.push({ start, end: stop });
}
