import { and, asc, desc, eq, isNull, max, ne, sql } from 'drizzle-orm';
import { isUkMobile, toE164 } from '../../contract/phone.js';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';
import { TEXT_BACK_DEFAULTS, type TextBackSettings } from './text-back-rule.js';

/** The owner's text-back settings; no row = off with the defaults. */
export async function loadTextBack(db: Db, userId: number): Promise<TextBackSettings> {
  const { textBackSettings } = tablesOf(db);
  const row = (await db.select().from(textBackSettings).where(eq(textBackSettings.userId, userId)).limit(1))[0];
  return row ? { enabled: row.enabled, wording: row.wording, windowHours: row.windowHours, hours: row.hours } : TEXT_BACK_DEFAULTS;
}

export async function saveTextBack(db: Db, userId: number, s: TextBackSettings, now: Date): Promise<void> {
  const { textBackSettings } = tablesOf(db);
  const set = { enabled: s.enabled, wording: s.wording, windowHours: s.windowHours, hours: s.hours, updatedAt: now };
  await db.insert(textBackSettings).values({ userId, ...set }).onConflictDoUpdate({ target: textBackSettings.userId, set });
}

/** Records a STOP; true when the number was not stopped before (so it is confirmed once). */
export async function optOut(db: Db, userId: number, callerNumber: string, word: string, now: Date): Promise<boolean> {
  const { callerOptOuts } = tablesOf(db);
  const r = await db.insert(callerOptOuts).values({ userId, callerNumber, word, optedOutAt: now }).onConflictDoNothing().returning({ n: callerOptOuts.callerNumber });
  return r.length === 1;
}

/** Undoes a STOP; true when there was one. */
export async function optIn(db: Db, userId: number, callerNumber: string): Promise<boolean> {
  const { callerOptOuts } = tablesOf(db);
  const r = await db.delete(callerOptOuts).where(and(eq(callerOptOuts.userId, userId), eq(callerOptOuts.callerNumber, callerNumber))).returning({ n: callerOptOuts.callerNumber });
  return r.length === 1;
}

export async function optedOut(db: Db, userId: number) {
  const { callerOptOuts } = tablesOf(db);
  return db.select().from(callerOptOuts).where(eq(callerOptOuts.userId, userId)).orderBy(desc(callerOptOuts.optedOutAt));
}

/** The business that owns a DID now (a released number belongs to nobody). */
export async function ownerOfNumber(db: Db, did: string): Promise<number | null> {
  const { phoneNumbers } = tablesOf(db);
  const row = (await db.select({ userId: phoneNumbers.userId }).from(phoneNumbers)
    .where(and(eq(phoneNumbers.phoneNumber, did), isNull(phoneNumbers.releasedAt))).limit(1))[0];
  return row?.userId ?? null;
}

/**
 * The number the owner's answer goes from: the DID this caller last rang, else the owner's
 * first number still theirs. Null when the owner has none.
 */
export async function senderFor(db: Db, userId: number, callerNumber: string): Promise<string | null> {
  const { calls, phoneNumbers } = tablesOf(db);
  const mine = await db.select({ n: phoneNumbers.phoneNumber }).from(phoneNumbers)
    .where(and(eq(phoneNumbers.userId, userId), isNull(phoneNumbers.releasedAt))).orderBy(asc(phoneNumbers.id));
  const owned = new Set(mine.map((r) => r.n));
  const rang = await db.select({ to: calls.toNumber }).from(calls)
    .where(and(eq(calls.userId, userId), eq(calls.fromNumber, callerNumber))).orderBy(desc(calls.id)).limit(5);
  return rang.find((c) => owned.has(c.to))?.to ?? mine[0]?.n ?? null;
}

/**
 * Whether this number has been in touch with the business: rang it, texted it, or has a
 * booking with it. The owner's answers go only to such numbers, so the console cannot be
 * used to text any UK mobile at all (issue 53).
 */
export async function hasBeenInTouch(db: Db, userId: number, callerNumber: string, exceptCallId?: number): Promise<boolean> {
  const { bookings, callerTexts, calls } = tablesOf(db);
  // A call in progress asks about the calls before it (the routing rules' new or existing caller).
  const earlier = exceptCallId === undefined ? undefined : ne(calls.id, exceptCallId);
  const rang = await db.select({ id: calls.id }).from(calls).where(and(eq(calls.userId, userId), eq(calls.fromNumber, callerNumber), earlier)).limit(1);
  if (rang.length > 0) return true;
  const texted = await db.select({ id: callerTexts.id }).from(callerTexts)
    .where(and(eq(callerTexts.userId, userId), eq(callerTexts.callerNumber, callerNumber), eq(callerTexts.kind, 'caller'))).limit(1);
  if (texted.length > 0) return true;
  const booked = await db.select({ id: bookings.id }).from(bookings).where(and(eq(bookings.userId, userId), eq(bookings.callerNumber, callerNumber))).limit(1);
  return booked.length > 0;
}

/** One thread: its texts oldest first, the caller's calls newest first, and whether they stopped texts. */
export async function loadThread(db: Db, userId: number, callerNumber: string) {
  const { callerOptOuts, callerTexts, calls } = tablesOf(db);
  const texts = await db.select().from(callerTexts)
    .where(and(eq(callerTexts.userId, userId), eq(callerTexts.callerNumber, callerNumber))).orderBy(asc(callerTexts.id));
  const callRows = await db.select({ id: calls.id, createdAt: calls.createdAt, status: calls.status, duration: calls.duration, staffId: calls.staffId }).from(calls)
    .where(and(eq(calls.userId, userId), eq(calls.fromNumber, callerNumber))).orderBy(desc(calls.id)).limit(50);
  const stop = (await db.select().from(callerOptOuts)
    .where(and(eq(callerOptOuts.userId, userId), eq(callerOptOuts.callerNumber, callerNumber))).limit(1))[0];
  return { texts, calls: callRows, optedOutAt: stop?.optedOutAt ?? null };
}

/** Every thread of one owner, the newest first, with its last text. */
export async function listThreads(db: Db, userId: number, limit = 200) {
  const { callerTexts } = tablesOf(db);
  const heads = await db.select({ callerNumber: callerTexts.callerNumber, lastId: max(callerTexts.id), texts: sql<number>`count(*)`.mapWith(Number) })
    .from(callerTexts).where(eq(callerTexts.userId, userId)).groupBy(callerTexts.callerNumber).orderBy(desc(max(callerTexts.id))).limit(limit);
  if (heads.length === 0) return [];
  const stops = new Set((await optedOut(db, userId)).map((o) => o.callerNumber));
  const last = new Map<number, typeof callerTexts.$inferSelect>();
  for (const h of heads) {
    const row = (await db.select().from(callerTexts).where(eq(callerTexts.id, h.lastId!)).limit(1))[0];
    if (row) last.set(h.lastId!, row);
  }
  return heads.map((h) => {
    const l = last.get(h.lastId!)!;
    return { callerNumber: h.callerNumber, texts: h.texts, lastBody: l.body, lastKind: l.kind, lastAt: l.createdAt, optedOut: stops.has(h.callerNumber) };
  });
}

/**
 * Whether a booking text (a pay link, issue 59) can reach this caller, by the road's own rules
 * (road.ts): a UK mobile that has not texted STOP to this business. Caps are not asked: they pass.
 */
export async function canTextCaller(db: Db, userId: number, callerNumber: string): Promise<boolean> {
  const to = toE164(callerNumber);
  if (!to || !isUkMobile(to)) return false;
  const { callerOptOuts } = tablesOf(db);
  const stopped = await db.select({ n: callerOptOuts.callerNumber }).from(callerOptOuts)
    .where(and(eq(callerOptOuts.userId, userId), eq(callerOptOuts.callerNumber, to))).limit(1);
  return stopped.length === 0;
}
