import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { tablesOf, type Tables } from '../../db/schema.js';
import { connect, CalDavError } from './caldav.js';
import { CalendarAddressRefused, checkedCalendarAddress, type CalendarGuard } from './guarded-fetch.js';
import type { BookingKeys } from './keys.js';
import { seal } from './secret-box.js';

// The owner's calendar settings: CalDAV connect/disconnect (the password sealed, never returned),
// the pasted iCal address (sealed too: it is a secret URL), and the private feed's token.

export interface CalendarView {
  caldav: { url: string; username: string } | null;
  icalAddressSet: boolean;
  feedToken: string | null;
}

async function upsert(db: Db, userId: number, set: Partial<Tables['bookingCalendars']['$inferInsert']>, now: Date): Promise<void> {
  const { bookingCalendars } = tablesOf(db);
  await db.insert(bookingCalendars).values({ userId, ...set, updatedAt: now }).onConflictDoUpdate({ target: bookingCalendars.userId, set: { ...set, updatedAt: now } });
}

export async function calendarView(db: Db, userId: number): Promise<CalendarView> {
  const { bookingCalendars } = tablesOf(db);
  const row = (await db.select().from(bookingCalendars).where(eq(bookingCalendars.userId, userId)).limit(1))[0];
  return {
    caldav: row?.caldavUrl && row.caldavUser ? { url: row.caldavUrl, username: row.caldavUser } : null,
    icalAddressSet: !!row?.icalUrlSealed,
    feedToken: row?.feedToken ?? null,
  };
}

export type ConnectResult = { ok: true; url: string; name: string } | { ok: false; problem: CalDavError['problem']; message: string };

/** Tests the account; stores it only when it works. */
export async function connectCalDav(db: Db, keys: BookingKeys, userId: number, input: { address: string; username: string; password: string }, now: Date, signal: AbortSignal, guard: CalendarGuard): Promise<ConnectResult> {
  const tested = await testCalDav(input, signal, guard);
  if (!tested.ok) return tested;
  await upsert(db, userId, { caldavUrl: tested.url, caldavUser: input.username, caldavPasswordSealed: seal(keys.seal, input.password) }, now);
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

export async function disconnectCalDav(db: Db, userId: number, now: Date): Promise<void> {
  await upsert(db, userId, { caldavUrl: null, caldavUser: null, caldavPasswordSealed: null }, now);
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

export async function setIcalAddress(db: Db, keys: BookingKeys, userId: number, url: string | null, now: Date): Promise<void> {
  await upsert(db, userId, { icalUrlSealed: url ? seal(keys.seal, url) : null }, now);
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
