import { WEEKDAYS } from '../../contract/call-handling.js';
import type { RING_FIRST_STYLES } from '../../contract/enums.js';
import { tablesOf } from '../../core/db/schema.js';
import { ownerMember } from '../../core/team/store.js';
import { waitUntil } from '../helpers/wait.js';
import { envelopeMatch, speech } from './audio.js';
import type { CallerMedia } from './caller-media.js';
import type { OwnerBehaviour } from './owner-phone.js';
import type { RealPbx } from './harness.js';

// A business with a team (issue 58) on the real-PBX harness: each member's confirmed phone is a
// number on the SIPp owner phone that behaves as the test wants (answers, rings until CANCEL…).

export interface StaffSpec {
  name: string;
  phone: OwnerBehaviour;
  /** False: hours with no time on any day, so never working now. */
  working?: boolean;
}

export interface TeamBusiness {
  userId: number;
  did: string;
  /** Each member as made, in the order given, with the number their phone answers on. */
  staff: Array<{ id: number; name: string; phone: string }>;
}

export async function teamBusiness(
  h: RealPbx,
  opts: { staff: StaffSpec[]; ringFirst?: (typeof RING_FIRST_STYLES)[number]; ringSeconds?: number; aiMode?: 'agent' | 'voicemail'; knowledgeBase?: string },
): Promise<TeamBusiness> {
  const db = h.server.database.db;
  const { staff, teamSettings } = tablesOf(db);
  const business = await h.business({ businessName: 'Hale Plumbing', aiMode: opts.aiMode ?? 'voicemail', knowledgeBase: opts.knowledgeBase ?? null });
  await ownerMember(db, business.userId);
  const never = Object.fromEntries(WEEKDAYS.map((d) => [d, []])) as unknown as NonNullable<typeof staff.$inferInsert.hours>;
  const made = [];
  for (const [i, s] of opts.staff.entries()) {
    const phone = h.ownerPhone!.number(s.phone);
    const row = (await db
      .insert(staff)
      .values({ userId: business.userId, name: s.name, otherNames: [], position: i + 1, phone, phoneConfirmedAt: new Date(), hours: s.working === false ? never : null })
      .returning())[0]!;
    made.push({ id: row.id, name: row.name, phone });
  }
  await db.insert(teamSettings).values({ userId: business.userId, ringFirst: opts.ringFirst ?? 'off', ringSeconds: opts.ringSeconds ?? 20, copyOwner: false, rules: [], rota: {}, updatedAt: new Date() });
  return { ...business, staff: made };
}

/** `from` says `words`; resolves once `to` has heard them (the two are connected), throws if it never does. */
export async function saidAndHeard(from: CallerMedia, to: CallerMedia, words: string): Promise<void> {
  const samples = speech(words);
  const spokeAt = performance.now();
  await from.say(samples);
  await waitUntil(() => {
    const score = envelopeMatch(samples, to.heard(spokeAt)).score;
    if (score <= 0.8) throw new Error(`"${words}" not heard yet (match ${score.toFixed(2)})`);
  }, 20_000, 50);
}
