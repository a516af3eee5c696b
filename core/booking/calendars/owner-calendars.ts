import type { Db } from '../../db/client.js';
import { bounded, type BookingEventForCalendar, type CalendarReader, type CalendarWriter } from './calendar-gate.js';
import { putEvent, removeEvent, type CalDavAccount } from './caldav.js';
import { createCalDavMirror } from './caldav-mirror.js';
import type { CalendarGuard } from './guarded-fetch.js';
import { calendarIcs } from './ics-writer.js';
import type { BookingKeys } from './keys.js';
import { unseal } from './secret-box.js';
import type { Interval } from '../rules/slots.js';
import { calendarRow, type CalendarPlace } from './calendar-settings.js';

// Each owner's calendars as the desk reads and writes them: their CalDAV account (when
// connected, through caldav-mirror.ts's copy) and their pasted iCal address (when set, through
// ical-address.ts's cache); a team member's own calendar the same way, from their staff row
// (issue 58). Only the servers' answers are on the bound's clock.

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

type StoredCalendar = Awaited<ReturnType<typeof calendarRow>>;

const accountIn = (keys: BookingKeys, row: StoredCalendar): CalDavAccount | null => {
  if (!row?.caldavUrl || !row.caldavUser || !row.caldavPasswordSealed) return null;
  return { url: row.caldavUrl, username: row.caldavUser, password: unseal(keys.seal, row.caldavPasswordSealed) };
};

export async function caldavAccountOf(db: Db, keys: BookingKeys, ownerId: number, staffId?: number): Promise<CalDavAccount | null> {
  return accountIn(keys, await calendarRow(db, { ownerId, staffId }));
}

/** The mirror's key of a place: the owner's is their id, as before the team. */
const placeKey = (p: CalendarPlace) => (p.staffId === undefined ? `${p.ownerId}` : `${p.ownerId}:${p.staffId}`);

/** The filename of a booking's event: its uid, so the server refuses a second event for one slot. */
const eventFilename = (uid: string) => `${uid}.ics`;

export function ownerCalendars(deps: OwnerCalendarDeps): CalendarReader & CalendarWriter {
  const caldav = createCalDavMirror(deps.now, deps.guard);
  return {
    async busy(ownerId, from, to, read) {
      const place = { ownerId, staffId: read.staffId };
      const row = await calendarRow(deps.db, place);
      if (!row) return [];
      const reads: Array<Promise<Interval[]>> = [];
      const account = accountIn(deps.keys, row);
      if (account) reads.push(caldav.busy(placeKey(place), account, from, to, { maxAgeMs: read.maxAgeMs ?? 0, boundMs: read.boundMs, signal: read.signal }));
      const ical = deps.icalAddress;
      if (row.icalUrlSealed && ical) {
        const url = unseal(deps.keys.seal, row.icalUrlSealed);
        reads.push(bounded((signal) => ical.busy(ownerId, url, from, to, signal), read.boundMs, read.signal));
      }
      return (await Promise.all(reads)).flat();
    },
    async put(e: BookingEventForCalendar, signal) {
      const account = await caldavAccountOf(deps.db, deps.keys, e.ownerId, e.staffId);
      if (!account) return 'no-calendar';
      const ics = calendarIcs([{ uid: e.uid, summary: e.summary, description: e.description, start: new Date(e.start), end: new Date(e.end), stamp: deps.now() }]);
      return putEvent(account, eventFilename(e.uid), ics, signal, deps.guard);
    },
    async remove(ownerId, uid, signal, staffId) {
      const account = await caldavAccountOf(deps.db, deps.keys, ownerId, staffId);
      if (account) await removeEvent(account, eventFilename(uid), signal, deps.guard);
    },
  };
}
