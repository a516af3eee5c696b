import type { Db } from '../db/client.js';
import { loadCallHandling } from '../call-handling/store.js';
import { callTeamAt, type CallTeam } from './call-team.js';
import { currentMembers, loadTeamSettings, ownerMember } from './store.js';

/** The business's team for a call at `now`: three indexed reads (members, team settings, call handling). */
export async function loadCallTeam(db: Db, ownerId: number, now: Date): Promise<CallTeam> {
  await ownerMember(db, ownerId);
  const [rows, settings, handling] = await Promise.all([currentMembers(db, ownerId), loadTeamSettings(db, ownerId), loadCallHandling(db, ownerId)]);
  return callTeamAt(rows, settings, handling, now);
}
