import { and, eq, inArray, isNull, notInArray, or, sql, type SQL } from 'drizzle-orm';
import { WITHHELD_CALLER_IDS } from '../../contract/withheld.js';
import type { Tables } from '../db/schema.js';

/**
 * contract/callback.ts's isToCallBack as a WHERE clause, for the server's own lists of callers
 * waiting to be rung back (reminders, the weekly digest): voicemail or missed, not marked
 * called back, a number left (not withheld), not turned away by the owner's rules, and not the
 * owner's own test call, nor a screened nuisance call ("Call my line" comes from the owner, to their own box).
 * `lower(trim(…))` is the same on SQLite and PostgreSQL.
 */
export function waitingForCallBack(calls: Tables['calls']): SQL {
  return and(
    inArray(calls.status, ['missed', 'voicemail']),
    isNull(calls.calledBackAt),
    eq(calls.testCall, false),
    isNull(calls.screenedBy),
    notInArray(sql`lower(trim(${calls.fromNumber}))`, [...WITHHELD_CALLER_IDS]),
    or(isNull(calls.callerTag), notInArray(calls.callerTag, ['blocked', 'withheld-refused'])),
  )!;
}
