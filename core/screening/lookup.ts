import { and, countDistinct, eq, sql } from 'drizzle-orm';
import { toE164 } from '../../contract/phone.js';
import { isWithheldCaller } from '../../contract/withheld.js';
import type { Db } from '../db/client.js';
import { preparedPerDb } from '../db/prepared.js';
import { countingMark, evidenceJoins } from './evidence.js';
import { getThresholds } from './thresholds.js';
import { boxListed, markWindowStart, screenVerdict, type ScreenVerdict } from './verdict.js';

// It runs before the call is answered, so it must stay index lookups whatever the size of the
// lists (bench/screening.ts), in one round trip: the DID's owner with their mark on the caller and
// their choice (primary-key and unique-index reads joined), and the caller's SPAM marks that count
// now (spam_marks_number_idx; the subquery's own spam_marks, not the outer join's), counted at
// lookup time rather than read from a stored flag.
const statements = preparedPerDb('screening', (db, tables) => {
  const { boxSpamNumbers, phoneNumbers, screeningSettings, spamMarks, users } = tables;
  const joins = evidenceJoins(tables);
  const boxMarks = db
    .select({ n: countDistinct(spamMarks.userId) })
    .from(spamMarks)
    .innerJoin(users, joins.owner)
    .leftJoin(boxSpamNumbers, joins.clearing)
    .where(and(eq(spamMarks.number, sql.placeholder('caller')), countingMark(tables, sql.param(sql.placeholder('since'), spamMarks.markedAt))));
  return {
    facts: db
      .select({ userId: phoneNumbers.userId, ownerMark: spamMarks.verdict, action: screeningSettings.action, boxMarks: sql<number>`(${boxMarks})`.mapWith(Number) })
      .from(phoneNumbers)
      .leftJoin(spamMarks, and(eq(spamMarks.userId, phoneNumbers.userId), eq(spamMarks.number, sql.placeholder('caller'))))
      .leftJoin(screeningSettings, eq(screeningSettings.userId, phoneNumbers.userId))
      .where(eq(phoneNumbers.phoneNumber, sql.placeholder('did')))
      .limit(1),
  };
});

/**
 * Whether the call from `callerNumber` to the DID (E.164) is screened before answering at `now`.
 * A withheld caller has no number to screen; a DID with no owner is left to routing. The box-wide
 * list is read only when the owner's own word does not already decide.
 */
export async function screenBeforeAnswer(db: Db, did: string, callerNumber: string, now: Date): Promise<ScreenVerdict> {
  if (isWithheldCaller(callerNumber)) return { screen: false };
  const caller = toE164(callerNumber) ?? callerNumber.trim();
  const row = (await statements(db).facts.execute({ did, caller, since: markWindowStart(now) }))[0];
  if (!row || row.userId == null) return { screen: false };
  const ownerMark = row.ownerMark ?? null;
  // A caller nobody marked cannot be listed, whatever the threshold: most callers cost one round trip.
  const listed = ownerMark === null && row.boxMarks > 0 && boxListed(row.boxMarks, await getThresholds(db));
  return screenVerdict({ ownerMark, boxListed: listed, action: row.action ?? 'reject' });
}
