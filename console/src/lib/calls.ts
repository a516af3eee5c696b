// Call Logs rules (SPEC.md §2): stat cards, search and the status filter.
import type { ApiCallLog } from '../../../contract/api';
import { isToCallBack } from '../../../contract/callback';
import { matchesPhoneQuery, type PhoneQuery } from '../../../contract/phone-display';

export type CallFilter = 'all' | 'answered' | 'missed' | 'voicemail';
export const CALL_FILTERS: { value: CallFilter; label: string }[] = [
  { value: 'all', label: 'All Calls' },
  { value: 'answered', label: 'Answered' },
  { value: 'missed', label: 'Missed' },
  { value: 'voicemail', label: 'Voicemail' },
];

/** answered ÷ total × 100, rounded; 0 when there are no calls. */
export function responseRate(total: number, answered: number): number {
  return total > 0 ? Math.round((answered / total) * 100) : 0;
}

export function callStats(calls: readonly Pick<ApiCallLog, 'status'>[]) {
  const total = calls.length;
  const answered = calls.filter((c) => c.status === 'answered').length;
  const missed = calls.filter((c) => c.status === 'missed').length;
  return { total, answered, missed, responseRate: responseRate(total, answered) };
}

/**
 * The stat cards when only the newest page of calls is loaded: the server's own counts
 * (GET /api/analytics) cover every call, not just the page in the browser.
 */
export function callStatsFromTotals(totalCalls: number, breakdown: { answered: number; missed: number }) {
  return { total: totalCalls, answered: breakdown.answered, missed: breakdown.missed, responseRate: responseRate(totalCalls, breakdown.answered) };
}

/**
 * SPEC's free text against fromNumber, toNumber (as typed) and aiSummary (ignoring case);
 * and a query that looks like a phone number also matches either number on its digits in
 * any UK spelling, so a caller is found as the card shows them ("+44 770 090 0382") or as
 * the owner knows them ("07700 900382").
 */
function matchesSearch(
  call: Pick<ApiCallLog, 'fromNumber' | 'toNumber' | 'aiSummary'>,
  text: string,
  phone: PhoneQuery | null = null,
): boolean {
  if (!text) return true;
  return (
    (call.fromNumber ?? '').includes(text) ||
    (call.toNumber ?? '').includes(text) ||
    (call.aiSummary ?? '').toLowerCase().includes(text.toLowerCase()) ||
    (phone !== null && (matchesPhoneQuery(call.fromNumber, phone) || matchesPhoneQuery(call.toNumber, phone)))
  );
}

export function filterCalls<T extends Pick<ApiCallLog, 'fromNumber' | 'toNumber' | 'aiSummary' | 'status'>>(
  calls: readonly T[],
  search: string,
  status: CallFilter,
  /** The search read as a phone number (usePhoneQuery), when it looks like one. */
  phone: PhoneQuery | null = null,
): T[] {
  return calls.filter((c) => (status === 'all' || c.status === status) && matchesSearch(c, search, phone));
}

/** The "To call back" filter, beside the status filter: callers still waiting for the owner. */
export function toCallBackOnly<T extends Pick<ApiCallLog, 'status' | 'fromNumber' | 'calledBackAt'> & Partial<Pick<ApiCallLog, 'testCall'>>>(calls: readonly T[], on: boolean): T[] {
  return on ? calls.filter(isToCallBack) : [...calls];
}

/** The "Urgent" filter, beside "To call back": calls the summary judged urgent (the card's red Urgent badge). */
export function urgentOnly<T extends Pick<ApiCallLog, 'urgency'>>(calls: readonly T[], on: boolean): T[] {
  return on ? calls.filter((c) => c.urgency === 'urgent') : [...calls];
}

/** The "Screened" filter (issue 43): nuisance calls kept for the owner to open, never texted to them. */
export function screenedOnly<T extends Pick<ApiCallLog, 'screenedBy'>>(calls: readonly T[], on: boolean): T[] {
  return on ? calls.filter((c) => c.screenedBy !== null) : [...calls];
}

const CLASS_LABELS: Record<NonNullable<ApiCallLog['callClass']>, string> = {
  genuine: 'Genuine',
  sales: 'Sales call',
  recorded: 'Recorded message',
  silent: 'Silent call',
  'wrong-number': 'Wrong number',
};

/** Why a call was screened, in the owner's words; null when it was not. */
export function screenedLabel(call: Pick<ApiCallLog, 'screenedBy' | 'callClass'>): string | null {
  if (call.screenedBy === 'owner') return 'On your spam list';
  if (call.screenedBy === 'box') return 'Known nuisance number';
  if (call.screenedBy === 'summary') return call.callClass ? CLASS_LABELS[call.callClass] : 'Nuisance call';
  return null;
}
