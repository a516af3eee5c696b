import { isUkLandline } from '../../contract/phone.js';
import type { CallTeam } from './call-team.js';

/** A member texted about a call on their own confirmed phone. */
interface MemberRecipient {
  staffId: number;
  name: string;
  /** E.164, confirmed by its texted code. */
  phone: string;
}

/** Who gets a call's texts: team members on their own phones, and whether the owner does too. */
export interface CallRecipients {
  members: MemberRecipient[];
  /** The owner, on their notification number as ever; null = not texted about this call. */
  owner: { forName: string | null } | null;
}

/** Who a business's texts went to before teams: the owner alone, the text naming nobody. */
export const OWNER_ONLY: CallRecipients = { members: [], owner: { forName: null } };

/**
 * Pure: who is texted about a call (issue 58, item 6). A call for a member (calls.staff_id, not
 * the owner) goes to that member's confirmed phone instead of the owner, and to the owner too
 * when they asked to be copied on everything; a member with no confirmed phone, or no longer on
 * the team, leaves the text with the owner, who is then told whose message it is. So does a
 * member on a landline, which is rung like any phone but takes no texts: the owner's text says
 * "for Sarah (landline)", so they know to pass it on. An urgent summary also goes to the day's
 * on-call member (unless on a landline) and always to the owner. `ownerPhone` is where the
 * owner's texts go (E.164, '' when nowhere): a member sharing it is texted once, as the owner.
 */
export function callRecipients(
  call: { staffId: number | null; urgent: boolean },
  team: Pick<CallTeam, 'members' | 'onCallId' | 'copyOwner'>,
  ownerPhone: string,
): CallRecipients {
  const member = call.staffId === null ? undefined : team.members.find((m) => m.id === call.staffId && !m.isOwner);
  const reachable = (m: CallTeam['members'][number] | undefined): MemberRecipient | null =>
    m && !m.isOwner && m.phone && m.phone !== ownerPhone && !isUkLandline(m.phone) ? { staffId: m.id, name: m.name, phone: m.phone } : null;
  const members: MemberRecipient[] = [];
  const own = reachable(member);
  if (own) members.push(own);
  const onCall = call.urgent && team.onCallId !== null ? reachable(team.members.find((m) => m.id === team.onCallId)) : null;
  if (onCall && !members.some((m) => m.phone === onCall.phone)) members.push(onCall);
  const ownerToo = !own || team.copyOwner || call.urgent;
  const forName = member ? (member.phone && isUkLandline(member.phone) ? `${member.name} (landline)` : member.name) : null;
  return { members, owner: ownerToo ? { forName } : null };
}
