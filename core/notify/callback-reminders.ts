import { and, eq, gte, isNotNull, isNull, lte } from 'drizzle-orm';
import { waitingForCallBack } from '../calls/to-call-back.js';
import type { Db } from '../db/client.js';
import { tablesOf, type Call, type User } from '../db/schema.js';
import { errorMessage, isRetryable } from '../jobs/retryable.js';
import type { Log } from '../../contract/log.js';
import { callbackReminderBody } from './message.js';
import type { CallNotifier } from './notifier.js';
import { rowsAffected } from '../db/raw.js';

/**
 * A reminder is due once a call's reminder moment (its time + the owner's hours) has passed,
 * and for a day after that: a restart or a short outage catches up, while switching the
 * setting on does not text about every old call at once.
 */
const REMINDER_CATCH_UP_MS = 24 * 3600_000;

/** Calls reminded about in one pass at most; the rest wait for the next. */
const MAX_PER_PASS = 500;

/**
 * One pass of the call-back reminders: every voicemail or missed call with a number, not
 * marked called back, whose owner asked for a reminder after N hours and has not had one for
 * it. Each call is claimed (`reminder_at`) before it is texted, so a second pass, a second
 * process or a restart never reminds twice; a transient send failure gives the claim back for
 * the next pass, and the notifier's own rows keep that retry from sending twice.
 */
export async function sendCallbackReminders(db: Db, notifier: CallNotifier, now: Date, log: Log): Promise<number> {
  const { calls, users } = tablesOf(db);
  const at = now.getTime();
  // The reminder moment is per owner (their hours): one query per distinct setting, each with
  // plain time bounds, so the same statement runs on SQLite and PostgreSQL. Owners choose from
  // a handful of values, so this is a handful of indexed queries.
  const settings = await db
    .selectDistinct({ hours: users.callbackReminderHours })
    .from(users)
    .where(and(eq(users.accountStatus, 'active'), isNotNull(users.callbackReminderHours)));
  const due: Array<{ call: Call; owner: User }> = [];
  for (const { hours } of settings) {
    if (hours === null || due.length >= MAX_PER_PASS) continue;
    const moment = at - hours * 3600_000;
    due.push(
      ...(await db
        .select({ call: calls, owner: users })
        .from(calls)
        .innerJoin(users, eq(users.id, calls.userId))
        .where(
          and(
            eq(users.accountStatus, 'active'),
            eq(users.callbackReminderHours, hours),
            waitingForCallBack(calls),
            isNull(calls.reminderAt),
            lte(calls.createdAt, new Date(moment)),
            gte(calls.createdAt, new Date(moment - REMINDER_CATCH_UP_MS)),
          ),
        )
        .limit(MAX_PER_PASS - due.length)),
    );
  }
  let sent = 0;
  for (const { call, owner } of due) {
    const claimed = rowsAffected(await db
      .update(calls)
      .set({ reminderAt: now })
      .where(and(eq(calls.id, call.id), isNull(calls.reminderAt))));
    if (!claimed) continue;
    const body = callbackReminderBody({ id: call.id, status: call.status as 'missed' | 'voicemail', fromNumber: call.fromNumber, createdAt: call.createdAt });
    try {
      await notifier.notify(call, owner, body, 'reminder');
      sent++;
    } catch (err) {
      log.warn({ callId: call.id, err: errorMessage(err) }, 'call-back reminder not sent');
      if (isRetryable(err)) await db.update(calls).set({ reminderAt: null }).where(eq(calls.id, call.id));
    }
  }
  return sent;
}
