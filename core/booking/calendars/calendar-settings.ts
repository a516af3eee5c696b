import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { tablesOf, type Tables } from '../../db/schema.js';
import { connect, CalDavError } from './caldav.js';
import { CalendarAddressRefused, checkedCalendarAddress, type CalendarGuard } from './guarded-fetch.js';
import type { BookingKeys } from './keys.js';
import { seal } from './secret-box.js';

// The owner's calendar settings: CalDAV connect/disconnect (the password sealed, never returned),
// the pasted iCal address (sealed too: it is a secret URL), and the private feed's token.

/**
 * Whose calendar: the owner's (booking_calendars) or a team member's own (its staff row, issue 58).
 * The owner's member keeps the owner's row: `staffId` is set only for the other members.
 */
export interface CalendarPlace {
  ownerId: number;
  staffId?: number;
}

/** An owner id alone is the owner's own calendar, as every caller before the team passed it. */
type PlaceOrOwner = number | CalendarPlace;
const placeOf = (p: PlaceOrOwner): CalendarPlace => (typeof p === 'number' ? { ownerId: p } : p);

type CalendarFields = Pick<Tables['bookingCalendars']['$inferInsert'], 'caldavUrl' | 'caldavUser' | 'caldavPasswordSealed' | 'icalUrlSealed'>;

/** The stored calendar of a place (the two tables name these columns alike); undefined when none was ever set. */
export async function calendarRow(db: Db, place: CalendarPlace): Promise<CalendarFields | undefined> {
  const { bookingCalendars, staff } = tablesOf(db);
  if (place.staffId === undefined) return (await db.select().from(bookingCalendars).where(eq(bookingCalendars.userId, place.ownerId)).limit(1))[0];
  return (await db.select().from(staff).where(and(eq(staff.id, place.staffId), eq(staff.userId, place.ownerId))).limit(1))[0];
}

async function setCalendar(db: Db, to: PlaceOrOwner, set: CalendarFields, now: Date): Promise<void> {
  const place = placeOf(to);
  if (place.staffId === undefined) return upsert(db, place.ownerId, set, now);
  const { staff } = tablesOf(db);
  await db.update(staff).set(set).where(and(eq(staff.id, place.staffId), eq(staff.userId, place.ownerId)));
}

export interface CalendarView {
  caldav: { url: string; username: string } | null;
  icalAddressSet: boolean;
  feedToken: string | null;
}

async function upsert(db: Db, userId: number, set: Partial<Tables['bookingCalendars']['$inferInsert']>, now: Date): Promise<void> {
  const { bookingCalendars } = tablesOf(db);
  await db.insert(bookingCalendars).values({ userId, ...set, updatedAt: now }).onConflictDoUpdate({ target: bookingCalendars.userId, set: { ...set, updatedAt: now } });
}

export async function calendarView(db: Db, of: PlaceOrOwner): Promise<CalendarView> {
  const place = placeOf(of);
  const row = await calendarRow(db, place);
  // The feed is the business's, whoever's calendar this is.
  const { bookingCalendars } = tablesOf(db);
  const feed = place.staffId === undefined ? (row as { feedToken?: string | null } | undefined) : (await db.select().from(bookingCalendars).where(eq(bookingCalendars.userId, place.ownerId)).limit(1))[0];
  return {
    caldav: row?.caldavUrl && row.caldavUser ? { url: row.caldavUrl, username: row.caldavUser } : null,
    icalAddressSet: !!row?.icalUrlSealed,
    feedToken: feed?.feedToken ?? null,
  };
}

export type ConnectResult = { ok: true; url: string; name: string } | { ok: false; problem: CalDavError['problem']; message: string };

/** Tests the account; stores it only when it works. */
export async function connectCalDav(db: Db, keys: BookingKeys, place: PlaceOrOwner, input: { address: string; username: string; password: string }, now: Date, signal: AbortSignal, guard: CalendarGuard): Promise<ConnectResult> {
  const tested = await testCalDav(input, signal, guard);
  if (!tested.ok) return tested;
  await setCalendar(db, place, { caldavUrl: tested.url, caldavUser: input.username, caldavPasswordSealed: seal(keys.seal, input.password) }, now);
  return tested;
}

/** "Test connection": the calendar found, or what is wrong in plain words. */
export async function testCalDav(input: { address: string; username: string; password: string }, signal: AbortSignal, guard: CalendarGuard): Promise<ConnectResult> {
  try {
    const found = await connect(input.address, input.username, input.password, signal, guard);
    return { ok: true, ...found };
  } catch (err) {
    if (err instanceof CalDavError) return { ok: false, problem: err.problem, message: err.message };
    if (signal.aborted) return { ok: false, problem: 'unreachable', message: 'The calendar did not answer in time. Check the address, and that the server is up.' };
    throw err;
  }
}

export async function disconnectCalDav(db: Db, place: PlaceOrOwner, now: Date): Promise<void> {
  await setCalendar(db, place, { caldavUrl: null, caldavUser: null, caldavPasswordSealed: null }, now);
}

/**
 * The sentence refusing a calendar address the guard would never let the box reach (checked on
 * save, as CalDAV's is by its test), or null. A name that does not resolve now is saved: the
 * reads say so, and DNS may recover.
 */
export async function refusedCalendarAddress(url: string, guard: CalendarGuard): Promise<string | null> {
  try {
    await checkedCalendarAddress(new URL(url), guard);
    return null;
  } catch (err) {
    return err instanceof CalendarAddressRefused ? err.message : null;
  }
}

export async function setIcalAddress(db: Db, keys: BookingKeys, place: PlaceOrOwner, url: string | null, now: Date): Promise<void> {
  await setCalendar(db, place, { icalUrlSealed: url ? seal(keys.seal, url) : null }, now);
}

/** A new feed token: the old feed address stops working at once. */
export async function regenerateFeedToken(db: Db, userId: number, now: Date): Promise<string> {
  const token = randomBytes(24).toString('base64url');
  await upsert(db, userId, { feedToken: token }, now);
  return token;
}

/** The owner whose private feed a token opens; null for a token that is not (or no longer) one. */
export async function ownerOfFeed(db: Db, token: string): Promise<number | null> {
  const { bookingCalendars } = tablesOf(db);
  const row = (await db.select({ userId: bookingCalendars.userId }).from(bookingCalendars).where(eq(bookingCalendars.feedToken, token)).limit(1))[0];
  return row?.userId ?? null;
}
