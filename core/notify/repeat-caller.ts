import { and, eq, gte, lte, ne } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { tablesOf, type Call } from '../db/schema.js';
import { lockOwner, transaction } from '../db/transaction.js';

/** How many calls from one number, how close together, make the owner get a one-off alert. */
export interface RepeatCallerRule {
  calls: number;
  windowMinutes: number;
}

/** "called 3 times in 20 minutes": a caller who cannot wait for a summary. */
export const DEFAULT_REPEAT_CALLER_RULE: RepeatCallerRule = { calls: 3, windowMinutes: 20 };

/**
 * The pure rule: this call completes a burst when, counting itself, `rule.calls` calls from
 * the number arrived within the window ending at it, and no call near it (a window either
 * side, so two bursts' jobs running in either order agree) has already alerted the owner.
 */
export function repeatAlertDue(callsInWindow: number, alreadyAlertedNearby: boolean, rule: RepeatCallerRule): boolean {
  return rule.calls > 0 && callsInWindow >= rule.calls && !alreadyAlertedNearby;
}

/**
 * Decides, and records on the call, whether this call's job sends the repeat-caller alert.
 * Runs in one transaction() holding the owner's lock, so of two jobs running at once, on one
 * core or two, only one claims it (test/db/two-cores-transactions.test.ts). A call that claimed it
 * before (a retried job) claims it again: the notifier's own rows make the send happen once.
 */
export async function claimRepeatAlert(db: Db, call: Call, rule: RepeatCallerRule): Promise<boolean> {
  const { calls } = tablesOf(db);
  if (call.repeatAlert) return true;
  if (!call.fromNumber.trim()) return false; // withheld callers cannot be told apart
  const window = rule.windowMinutes * 60_000;
  const at = call.createdAt.getTime();
  const sameCaller = and(eq(calls.userId, call.userId), eq(calls.fromNumber, call.fromNumber));
  const callsInWindow = async (q: Db) =>
    (await q
      .select({ id: calls.id })
      .from(calls)
      .where(and(sameCaller, gte(calls.createdAt, new Date(at - window)), lte(calls.createdAt, call.createdAt)))).length;
  // Most calls complete no burst, and the calls in the window ending at this one were all
  // written before it ended: a plain count settles them without a transaction or a lock, so
  // only a caller who may be due an alert waits for the owner's lock below.
  if (!repeatAlertDue(await callsInWindow(db), false, rule)) return false;
  return transaction(db, async (tx) => {
    const { calls } = tablesOf(tx);
    // One claim per owner at a time, on every core: the second reads the first's alert.
    await lockOwner(tx, call.userId);
    const inWindow = await callsInWindow(tx);
    const alerted = (await tx
      .select({ id: calls.id })
      .from(calls)
      .where(
        and(
          sameCaller,
          ne(calls.id, call.id),
          eq(calls.repeatAlert, true),
          gte(calls.createdAt, new Date(at - window)),
          lte(calls.createdAt, new Date(at + window)),
        ),
      )
      .limit(1)).length > 0;
    if (!repeatAlertDue(inWindow, alerted, rule)) return false;
    await tx.update(calls).set({ repeatAlert: true }).where(eq(calls.id, call.id));
    return true;
  });
}
