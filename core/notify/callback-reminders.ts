import { and, eq, gte, inArray, isNull, lte, ne, notInArray, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { calls, users } from '../db/schema.js';
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
export const REMINDER_CATCH_UP_MS = 24 * 3600_000;

/**
 * One pass of the call-back reminders: every voicemail or missed call with a number, not
 * marked called back, whose owner asked for a reminder after N hours and has not had one for
 * it. Each call is claimed (`reminder_at`) before it is texted, so a second pass, a second
 * process or a restart never reminds twice; a transient send failure gives the claim back for
 * the next pass, and the notifier's own rows keep that retry from sending twice.
 */
export async function sendCallbackReminders(db: Db, notifier: CallNotifier, now: Date, log: Log): Promise<number> {
  const at = now.getTime();
  const due = await db
    .select({ call: calls, owner: users })
    .from(calls)
    .innerJoin(users, eq(users.id, calls.userId))
    .where(
      and(
        eq(users.accountStatus, 'active'),
        sql`${users.callbackReminderHours} is not null`,
        inArray(calls.status, ['missed', 'voicemail']),
        ne(calls.fromNumber, ''),
        isNull(calls.calledBackAt),
        isNull(calls.reminderAt),
        // contract/callback.ts: callers turned away by the owner's rules are not waiting.
        or(isNull(calls.callerTag), notInArray(calls.callerTag, ['blocked', 'withheld-refused'])),
        lte(calls.createdAt, sql`${at} - ${users.callbackReminderHours} * 3600000`),
        gte(calls.createdAt, sql`${at} - ${users.callbackReminderHours} * 3600000 - ${REMINDER_CATCH_UP_MS}`),
      ),
    )
    .limit(500);
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
