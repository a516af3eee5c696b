import { and, eq, sql } from 'drizzle-orm';
import { toE164 } from '../../contract/phone.js';
import { isWithheldCaller } from '../../contract/withheld.js';
import type { Db } from '../db/client.js';
import { preparedPerDb } from '../db/prepared.js';
import { screenVerdict, type ScreenVerdict } from './verdict.js';

// One statement, three primary-key or unique-index reads joined: the DID's owner, the owner's
// mark on the caller, the caller's box-wide entry. It runs before the call is answered, so it
// must stay an index lookup whatever the size of the lists (bench/screening.ts).
const statements = preparedPerDb('screening', (db, { boxSpamNumbers, phoneNumbers, screeningSettings, spamMarks }) => ({
  facts: db
    .select({ userId: phoneNumbers.userId, ownerMark: spamMarks.verdict, boxListed: boxSpamNumbers.listed, action: screeningSettings.action })
    .from(phoneNumbers)
    .leftJoin(spamMarks, and(eq(spamMarks.userId, phoneNumbers.userId), eq(spamMarks.number, sql.placeholder('caller'))))
    .leftJoin(boxSpamNumbers, eq(boxSpamNumbers.number, sql.placeholder('caller')))
    .leftJoin(screeningSettings, eq(screeningSettings.userId, phoneNumbers.userId))
    .where(eq(phoneNumbers.phoneNumber, sql.placeholder('did')))
    .limit(1),
}));

/**
 * Whether the call from `callerNumber` to the DID (E.164) is screened before answering. A
 * withheld caller has no number to screen; a DID with no owner is left to routing.
 */
export async function screenBeforeAnswer(db: Db, did: string, callerNumber: string): Promise<ScreenVerdict> {
  if (isWithheldCaller(callerNumber)) return { screen: false };
  const caller = toE164(callerNumber) ?? callerNumber.trim();
  const row = (await statements(db).facts.execute({ did, caller }))[0];
  if (!row || row.userId == null) return { screen: false };
  return screenVerdict({ ownerMark: row.ownerMark ?? null, boxListed: row.boxListed ?? false, action: row.action ?? 'reject' });
}
