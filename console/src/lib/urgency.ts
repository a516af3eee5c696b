import type { CallUrgency } from '../../../contract/api';

/**
 * What the console says about a call's urgency. Cards flag only what stands out (urgent
 * and low); Call Details always says, "Not assessed" until a summary has judged the call.
 */
export function urgencyLabel(urgency: CallUrgency | null): string {
  if (urgency === 'urgent') return 'Urgent';
  if (urgency === 'low') return 'Low priority';
  if (urgency === 'normal') return 'Normal';
  return 'Not assessed';
}

export function showUrgencyOnCard(urgency: CallUrgency | null): boolean {
  return urgency === 'urgent' || urgency === 'low';
}

/** "Urgent: water coming through the ceiling", or the label alone without a reason. */
export function urgencyDetail(urgency: CallUrgency | null, reason: string | null): string {
  const label = urgencyLabel(urgency);
  return urgency && reason?.trim() ? `${label}: ${reason.trim()}` : label;
}
