import type { StaffActor } from '../team/staff-scope.js';
import type { LiveEntry } from './registry.js';

// Who sees which live call, as a pure rule: only the business's own calls; a staff member whose
// view is 'own' only the calls routing named them for (issue 58), 'everything' all of them.
// An admin is no business: their id owns no calls, so they see none (as GET /api/call-logs).

export interface LiveViewer {
  /** The business (req.user: the owner, also for a staff sign-in). */
  userId: number;
  staff: StaffActor | null;
}

export function canSeeLiveCall(viewer: LiveViewer, entry: LiveEntry): boolean {
  if (entry.userId !== viewer.userId) return false;
  if (viewer.staff?.view === 'own') return entry.call.staffId === viewer.staff.staffId;
  return true;
}
