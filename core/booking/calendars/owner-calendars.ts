import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { tablesOf } from '../../db/schema.js';
import { bounded, type BookingEventForCalendar, type CalendarReader, type CalendarWriter } from './calendar-gate.js';
import { putEvent, removeEvent, type CalDavAccount } from './caldav.js';
import { createCalDavMirror } from './caldav-mirror.js';
import type { CalendarGuard } from './guarded-fetch.js';
import { calendarIcs } from './ics-writer.js';
import type { BookingKeys } from './keys.js';
import { unseal } from './secret-box.js';
import type { Interval } from '../rules/slots.js';

// Each owner's calendars as the desk reads and writes them: their CalDAV account (when
// connected, through caldav-mirror.ts's copy) and their pasted iCal address (when set, through
// ical-address.ts's cache). Only the servers' answers are on the bound's clock.

export interface IcalAddressReader {
  busy(ownerId: number, url: string, from: number, to: number, signal: AbortSignal): Promise<Interval[]>;
}

export interface OwnerCalendarDeps {
  db: Db;
  keys: BookingKeys;
  now: () => Date;
  /** The address guard every CalDAV request goes through (guarded-fetch.ts). */
  guard: CalendarGuard;
  icalAddress?: IcalAddressReader;
}

export async function caldavAccountOf(db: Db, keys: BookingKeys, ownerId: number): Promise<CalDavAccount | null> {
  const { bookingCalendars } = tablesOf(db);
  const row = (await db.select().from(bookingCalendars).where(eq(bookingCalendars.userId, ownerId)).limit(1))[0];
  if (!row?.caldavUrl || !row.caldavUser || !row.caldavPasswordSealed) return null;
  return { url: row.caldavUrl, username: row.caldavUser, password: unseal(keys.seal, row.caldavPasswordSealed) };
}

/** The filename of a booking's event: its uid, so the server refuses a second event for one slot. */
const eventFilename = (uid: string) => `${uid}.ics`;

export function ownerCalendars(deps: OwnerCalendarDeps): CalendarReader & CalendarWriter {
  const caldav = createCalDavMirror(deps.now, deps.guard);
  return {
    async busy(ownerId, from, to, read) {
      const { bookingCalendars } = tablesOf(deps.db);
      const row = (await deps.db.select().from(bookingCalendars).where(eq(bookingCalendars.userId, ownerId)).limit(1))[0];
      if (!row) return [];
      const reads: Array<Promise<Interval[]>> = [];
      const account = await caldavAccountOf(deps.db, deps.keys, ownerId);
      if (account) reads.push(caldav.busy(ownerId, account, from, to, { maxAgeMs: read.maxAgeMs ?? 0, boundMs: read.boundMs, signal: read.signal }));
      const ical = deps.icalAddress;
      if (row.icalUrlSealed && ical) {
        const url = unseal(deps.keys.seal, row.icalUrlSealed);
        reads.push(bounded((signal) => ical.busy(ownerId, url, from, to, signal), read.boundMs, read.signal));
      }
      return (await Promise.all(reads)).flat();
    },
    async put(e: BookingEventForCalendar, signal) {
      const account = await caldavAccountOf(deps.db, deps.keys, e.ownerId);
      if (!account) return 'no-calendar';
      const ics = calendarIcs([{ uid: e.uid, summary: e.summary, description: e.description, start: new Date(e.start), end: new Date(e.end), stamp: deps.now() }]);
      return putEvent(account, eventFilename(e.uid), ics, signal, deps.guard);
    },
    async remove(ownerId, uid, signal) {
      const account = await caldavAccountOf(deps.db, deps.keys, ownerId);
      if (account) await removeEvent(account, eventFilename(uid), signal, deps.guard);
    },
  };
}
