import { toE164 } from '../../contract/phone.js';
import type { Db } from '../db/client.js';
import type { Call, User } from '../db/schema.js';
import { loadCallTeam } from '../team/load-call-team.js';
import { callRecipients, OWNER_ONLY, type CallRecipients } from '../team/recipients.js';
import { confirmedTextNumber } from './policy.js';

/**
 * Who a text about this call goes to. Only a call for someone (calls.staff_id) or an urgent
 * summary can go past the owner, so every other call is the owner's as before, without reading
 * the team. The on-call member is the one on the rota on the day the call came (London time).
 */
export async function recipientsForCall(db: Db, call: Call, owner: User, isSummary: boolean): Promise<CallRecipients> {
  // The urgency is the summary's verdict: the alerts and reminders about a call follow its person alone.
  const urgent = isSummary && call.urgency === 'urgent';
  if (call.staffId === null && !urgent) return OWNER_ONLY;
  const team = await loadCallTeam(db, owner.id, call.createdAt);
  return callRecipients({ staffId: call.staffId, urgent }, team, toE164(confirmedTextNumber(owner)) ?? '');
}
