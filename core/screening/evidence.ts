import { and, eq, gt, gte, isNull, or, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Tables } from '../db/schema.js';

type EvidenceTables = Pick<Tables, 'spamMarks' | 'users' | 'boxSpamNumbers'>;

/**
 * How a number's SPAM marks are read: each joined to its owner (whose status decides whether it
 * counts; inner join) and to the admin's clearing of the number, if any (left join). Index reads
 * only: spam_marks_number_idx, then users' and box_spam_numbers' primary keys.
 */
export function evidenceJoins({ spamMarks, users, boxSpamNumbers }: EvidenceTables): { owner: SQL; clearing: SQL } {
  return { owner: eq(users.id, spamMarks.userId), clearing: eq(boxSpamNumbers.number, spamMarks.number) };
}

/**
 * The box-wide list's rule (issue 53) in SQL, for a row of spam_marks joined to its owner and the
 * number's clearing: a SPAM mark counts only from an active owner (a suspended, expired or pending
 * one's stops at once; a deleted one's is gone with its owner), only if newer than the admin's
 * clearing, and only inside the window (`since`, verdict.ts markWindowStart). Nothing is stored:
 * the list is counted when it is asked, so it never outlives its evidence. verdict.ts markStanding
 * is the same rule for one mark, as the admin is shown it.
 */
export function countingMark({ spamMarks, users, boxSpamNumbers }: EvidenceTables, since: Date | SQLWrapper): SQL {
  return and(
    eq(spamMarks.verdict, 'spam'),
    eq(users.accountStatus, 'active'),
    gte(spamMarks.markedAt, since),
    or(isNull(boxSpamNumbers.clearedAt), gt(spamMarks.markedAt, boxSpamNumbers.clearedAt)),
  ) as SQL;
}
