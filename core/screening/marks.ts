import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';
import type { ScreenAction } from './verdict.js';

export type SpamVerdict = 'spam' | 'allow';

/**
 * An owner's SPAM or NOT SPAM on a number (E.164): one mark per owner and number, the latest
 * word standing, dated now (a SPAM mark renewed after the admin's clearing counts again). The
 * box-wide list counts the marks when it is asked (lookup.ts), so nothing else follows. Used by
 * the console's button and the owner's text reply alike.
 */
export async function markNumber(db: Db, userId: number, number: string, verdict: SpamVerdict, now: Date): Promise<void> {
  const { spamMarks } = tablesOf(db);
  await db
    .insert(spamMarks)
    .values({ userId, number, verdict, markedAt: now })
    .onConflictDoUpdate({ target: [spamMarks.userId, spamMarks.number], set: { verdict, markedAt: now } });
}

/** Takes the owner's mark off a number (neither spam nor allowed). False when it had none. */
export async function unmarkNumber(db: Db, userId: number, number: string): Promise<boolean> {
  const { spamMarks } = tablesOf(db);
  const gone = await db.delete(spamMarks).where(and(eq(spamMarks.userId, userId), eq(spamMarks.number, number))).returning({ id: spamMarks.id });
  return gone.length > 0;
}

/** The owner's two lists and their choice for screened callers. */
export async function ownerScreening(db: Db, userId: number): Promise<{ action: ScreenAction; spam: string[]; allow: string[] }> {
  const { spamMarks } = tablesOf(db);
  const marks = await db.select({ number: spamMarks.number, verdict: spamMarks.verdict }).from(spamMarks).where(eq(spamMarks.userId, userId)).orderBy(asc(spamMarks.number));
  return {
    action: await screenAction(db, userId),
    spam: marks.filter((m) => m.verdict === 'spam').map((m) => m.number),
    allow: marks.filter((m) => m.verdict === 'allow').map((m) => m.number),
  };
}

async function screenAction(db: Db, userId: number): Promise<ScreenAction> {
  const { screeningSettings } = tablesOf(db);
  return (await db.select({ action: screeningSettings.action }).from(screeningSettings).where(eq(screeningSettings.userId, userId)).limit(1))[0]?.action ?? 'reject';
}

export async function setScreenAction(db: Db, userId: number, action: ScreenAction): Promise<void> {
  const { screeningSettings } = tablesOf(db);
  await db.insert(screeningSettings).values({ userId, action }).onConflictDoUpdate({ target: screeningSettings.userId, set: { action } });
}
