import { and, eq, notInArray } from 'drizzle-orm';
import type { Log } from '../../contract/log.js';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';

/**
 * What Twilio's error codes on a failed or undelivered message mean, in the owner's words
 * (https://www.twilio.com/docs/api/errors); any other code is shown by its number.
 */
const REASONS: Record<string, string> = {
  '30003': 'the phone is switched off or out of signal',
  '30004': 'the caller has blocked texts from this number',
  '30005': 'the number does not exist or is no longer in use',
  '30006': 'the number is a landline or cannot take texts',
  '30007': 'the carrier filtered the text as spam',
  '30008': 'the carrier gave no reason',
  '21610': 'the caller has replied STOP to this number at the carrier',
  '21614': 'the number is not a mobile number',
};

/** The statuses that end a text's story; earlier ones (queued, sending, sent) change nothing. */
const FINAL = { delivered: 'delivered', failed: 'failed', undelivered: 'undelivered' } as const;

function failureReason(errorCode: string | undefined): string {
  if (!errorCode) return 'the carrier gave no reason';
  return `${REASONS[errorCode] ?? 'the carrier refused it'} (Twilio ${errorCode})`;
}

/**
 * Records a status callback on the caller text Twilio sent as `sid`. A final status is kept
 * once set (callbacks may arrive out of order: a late 'sent' never undoes 'delivered').
 * Returns whether a text changed.
 */
export async function recordDeliveryStatus(db: Db, now: () => Date, log: Pick<Log, 'info'>, sid: string, status: string, errorCode?: string): Promise<boolean> {
  const { callerTexts } = tablesOf(db);
  const final = FINAL[status as keyof typeof FINAL];
  if (!final) return false;
  const changed = await db.update(callerTexts)
    .set({ status: final, error: final === 'delivered' ? null : failureReason(errorCode), updatedAt: now() })
    .where(and(eq(callerTexts.providerId, sid), notInArray(callerTexts.status, ['delivered', 'failed', 'undelivered', 'received'])))
    .returning({ id: callerTexts.id });
  log.info({ messageSid: sid, status: final, texts: changed.length }, 'caller text status');
  return changed.length > 0;
}
