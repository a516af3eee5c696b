import fs from 'node:fs/promises';
import path from 'node:path';
import { and, eq, isNotNull, lt, or } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';
import { rowsAffected } from '../db/raw.js';

/** How long callers' personal data is kept; null keeps it until the owner or an admin deletes it. */
export interface RetentionPolicy {
  recordingDays: number | null;
  transcriptDays: number | null;
}

const KEY = 'retention';
const DAY_MS = 24 * 60 * 60 * 1000;

export async function getRetention(db: Db, defaults: RetentionPolicy): Promise<RetentionPolicy> {
  const { appSettings } = tablesOf(db);
  const row = (await db.select().from(appSettings).where(eq(appSettings.key, KEY)).limit(1))[0];
  return row ? { ...defaults, ...(row.value as Partial<RetentionPolicy>) } : defaults;
}

export async function setRetention(db: Db, policy: RetentionPolicy, now: Date): Promise<void> {
  const { appSettings } = tablesOf(db);
  await db.insert(appSettings)
    .values({ key: KEY, value: policy, updatedAt: now })
    .onConflictDoUpdate({ target: appSettings.key, set: { value: policy, updatedAt: now } });
}

/** The instant before which data falls outside the policy (pure). */
export function cutoff(days: number | null, now: Date): Date | null {
  return days === null ? null : new Date(now.getTime() - days * DAY_MS);
}

/**
 * Deletes recordings and clears transcripts and summaries older than the policy.
 * The call row itself stays (the owner's call history and analytics); only the
 * caller's voice and words go. Files are removed after the rows no longer point at them.
 */
export async function applyRetention(
  db: Db,
  dataDir: string,
  policy: RetentionPolicy,
  now: Date,
): Promise<{ recordings: number; transcripts: number; callerTexts: number }> {
  const { callerTexts, calls } = tablesOf(db);
  let recordings = 0;
  let transcripts = 0;
  let texts = 0;
  const recCut = cutoff(policy.recordingDays, now);
  if (recCut) {
    const old = await db
      .select({ id: calls.id, file: calls.recordingFile })
      .from(calls)
      .where(and(isNotNull(calls.recordingFile), lt(calls.createdAt, recCut)));
    for (const { id, file } of old) {
      await db.update(calls).set({ recordingFile: null }).where(eq(calls.id, id));
      await fs.rm(path.join(dataDir, 'recordings', path.basename(file!)), { force: true });
      recordings++;
    }
  }
  const txCut = cutoff(policy.transcriptDays, now);
  if (txCut) {
    transcripts = rowsAffected(
      await db
      .update(calls)
      // The urgency's reason is words from the message too ("water coming through the ceiling").
      .set({ transcription: null, aiSummary: null, urgencyReason: null })
      .where(and(lt(calls.createdAt, txCut), or(isNotNull(calls.transcription), isNotNull(calls.aiSummary), isNotNull(calls.urgencyReason))))
    );
    // Texts with callers are their words too: they go on the transcripts' clock (opt-outs stay).
    texts = rowsAffected(await db.delete(callerTexts).where(lt(callerTexts.createdAt, txCut)));
  }
  return { recordings, transcripts, callerTexts: texts };
}
