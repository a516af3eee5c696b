import { screenedCalls } from '../screening/counts.js';
import { and, asc, eq, gte, lt } from 'drizzle-orm';
import { waitingForCallBack } from '../calls/to-call-back.js';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';
import { callbackDigestMail, type DigestCall } from '../mail/digest-mail.js';
import { isMailRetryable, type Mailer } from '../mail/mailer.js';
import type { Brand } from '../mail/templates.js';
import { errorMessage } from '../jobs/retryable.js';
import type { Log } from '../../contract/log.js';
import { digestWeek } from './week.js';
import { rowsAffected } from '../db/raw.js';

/** A digest lists at most this many calls: an owner with more has a bigger problem than e-mail. */
const MAX_CALLS = 500;

export interface DigestPassResult {
  weekOf: string;
  /** Digests mailed by this pass. */
  sent: number;
  /** False before Monday 08:00 London: nothing is due yet this week. */
  due: boolean;
}

/**
 * One pass of the weekly "to call back" digest for the London week around `now`. Nothing is
 * sent before Monday 08:00 London; from then on, until the week ends, each active owner who
 * has not turned the digest off (Notification Settings) and has calls from last week still
 * waiting (contract/callback.ts's rule, core/calls/to-call-back.ts: voicemail or missed, with a
 * number, not marked called back, not turned away) gets one mail. The owner's week is claimed in
 * `weekly_digests` before the relay is called, so the cron run, the catch-up run at start and
 * a second process never mail it twice. A relay that is down gives the claim back for the next
 * pass; a crash during the send leaves 'sending', which is not mailed again (a duplicate
 * cannot be taken back; a missing digest is visible in the table and the log).
 */
export async function sendWeeklyDigests(db: Db, mailer: Mailer, brand: Brand, now: Date, log: Log): Promise<DigestPassResult> {
  const { calls, users, weeklyDigests } = tablesOf(db);
  const week = digestWeek(now.getTime());
  if (now.getTime() < week.dueAt) return { weekOf: week.weekOf, sent: 0, due: false };
  const owners = await db
    .select({ id: users.id, email: users.email, summaryEmail: users.summaryEmail, businessName: users.businessName })
    .from(users)
    .where(and(eq(users.role, 'customer'), eq(users.accountStatus, 'active'), eq(users.weeklyDigestEnabled, true)));
  let sent = 0;
  for (const owner of owners) {
    const done = (await db
      .select({ id: weeklyDigests.id })
      .from(weeklyDigests)
      .where(and(eq(weeklyDigests.userId, owner.id), eq(weeklyDigests.weekOf, week.weekOf))).limit(1))[0];
    if (done) continue;
    const waiting: DigestCall[] = await db
      .select({ id: calls.id, status: calls.status, fromNumber: calls.fromNumber, createdAt: calls.createdAt })
      .from(calls)
      .where(
        and(
          eq(calls.userId, owner.id),
          gte(calls.createdAt, new Date(week.from)),
          lt(calls.createdAt, new Date(week.to)),
          waitingForCallBack(calls),
        ),
      )
      .orderBy(asc(calls.createdAt), asc(calls.id))
      .limit(MAX_CALLS) as DigestCall[];
    // Nothing to call back, nothing to say. Not claimed either: last week cannot gain calls.
    if (waiting.length === 0) continue;
    const claimed = rowsAffected(await db
      .insert(weeklyDigests)
      .values({ userId: owner.id, weekOf: week.weekOf, status: 'sending', calls: waiting.length })
      .onConflictDoNothing());
    if (!claimed) continue;
    const screened = await screenedCalls(db, { userId: owner.id, from: new Date(week.from), to: new Date(week.to) });
    const days = week.days.map((d) => ({ date: d.date, calls: waiting.filter((c) => c.createdAt.getTime() >= d.start && c.createdAt.getTime() < d.end) }));
    const settle = async (set: Partial<typeof weeklyDigests.$inferInsert>) =>
      await db.update(weeklyDigests).set(set).where(and(eq(weeklyDigests.userId, owner.id), eq(weeklyDigests.weekOf, week.weekOf)));
    try {
      // Where the owner wants call e-mails (Notification Settings), else the account e-mail.
      await mailer.send(callbackDigestMail(brand, owner.summaryEmail ?? owner.email, { businessName: owner.businessName, days, screened }));
      await settle({ status: 'sent', sentAt: now, error: null });
      sent++;
    } catch (err) {
      const error = errorMessage(err);
      log.warn({ userId: owner.id, weekOf: week.weekOf, err: error }, 'weekly digest not sent');
      if (isMailRetryable(err)) {
        await db.delete(weeklyDigests).where(and(eq(weeklyDigests.userId, owner.id), eq(weeklyDigests.weekOf, week.weekOf)));
      } else {
        await settle({ status: 'failed', error });
      }
    }
  }
  return { weekOf: week.weekOf, sent, due: true };
}
