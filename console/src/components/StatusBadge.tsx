import type { AccountStatus, CallStatus, CallUrgency } from '../../../contract/api';
import { capitalise } from '../lib/format';
import { urgencyLabel } from '../lib/urgency';
import { Badge, type BadgeTone } from './ui';

const CALL_TONE: Record<string, BadgeTone> = { answered: 'green', missed: 'red', voicemail: 'blue' };

export function CallStatusBadge({ status }: { status: CallStatus | string | null | undefined }) {
  if (!status) return <Badge>N/A</Badge>;
  return <Badge tone={CALL_TONE[status] ?? 'gray'}>{capitalise(status)}</Badge>;
}

const ACCOUNT_TONE: Record<AccountStatus, BadgeTone> = {
  active: 'green',
  pending_approval: 'amber',
  expired: 'red',
  suspended: 'gray',
  rejected: 'red',
};
const ACCOUNT_LABEL: Record<AccountStatus, string> = {
  active: 'Active',
  pending_approval: 'Pending Approval',
  expired: 'Expired',
  suspended: 'Suspended',
  rejected: 'Rejected',
};

export function AccountStatusBadge({ status, className }: { status: AccountStatus; className?: string }) {
  return (
    <Badge tone={ACCOUNT_TONE[status] ?? 'gray'} className={className}>
      {ACCOUNT_LABEL[status] ?? status}
    </Badge>
  );
}

const URGENCY_TONE: Record<CallUrgency, BadgeTone> = { urgent: 'red', normal: 'gray', low: 'gray' };

export function UrgencyBadge({ urgency }: { urgency: CallUrgency }) {
  return <Badge tone={URGENCY_TONE[urgency]}>{urgencyLabel(urgency)}</Badge>;
}
