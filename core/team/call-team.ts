import type { CallHandlingSettings } from '../../contract/call-handling.js';
import { WEEKDAYS } from '../../contract/call-handling.js';
import type { RING_FIRST_STYLES } from '../../contract/enums.js';
import type { RoutingRule } from '../../contract/team.js';
import { londonOffsetMs } from '../time/london-time.js';
import type { StaffRow } from '../db/schema.js';
import type { TeamSettings } from './store.js';
import { isWorking } from './working-now.js';

/** One team member as a call sees them at one moment. */
export interface CallTeamMember {
  id: number;
  name: string;
  otherNames: string[];
  roleWord: string | null;
  isOwner: boolean;
  /** Inside their hours now (London time, the business's bank holidays). */
  working: boolean;
  /** Their confirmed phone (E.164); null when they have none confirmed: never rung, never texted. */
  phone: string | null;
}

/** The team as one call uses it: who is there, who works now, how to ring them and the owner's rules. */
export interface CallTeam {
  members: CallTeamMember[];
  ringFirst: (typeof RING_FIRST_STYLES)[number];
  ringSeconds: number;
  rules: RoutingRule[];
  /** Today's on-call member (the rota's London weekday), when they are still a member. */
  onCallId: number | null;
  copyOwner: boolean;
}

/**
 * Pure: the team at `now` from the rows already read. The owner's phone is their put-through
 * number (call handling's transferNumber) unless their member row has its own confirmed one.
 */
export function callTeamAt(
  rows: StaffRow[],
  settings: TeamSettings,
  business: Pick<CallHandlingSettings, 'hoursEnabled' | 'hours' | 'holidayNations' | 'transferNumber'>,
  now: Date,
): CallTeam {
  const members = rows.map((r) => ({
    id: r.id,
    name: r.name,
    otherNames: r.otherNames,
    roleWord: r.roleWord,
    isOwner: r.isOwner,
    working: isWorking(r, business, now),
    phone: r.phone && r.phoneConfirmedAt ? r.phone : r.isOwner ? business.transferNumber : null,
  }));
  const local = new Date(now.getTime() + londonOffsetMs(now.getTime()));
  const today = WEEKDAYS[(local.getUTCDay() + 6) % 7]!;
  const onCall = settings.rota[today];
  return {
    members,
    ringFirst: settings.ringFirst,
    ringSeconds: settings.ringSeconds,
    rules: settings.rules,
    onCallId: onCall !== undefined && members.some((m) => m.id === onCall) ? onCall : null,
    copyOwner: settings.copyOwner,
  };
}
