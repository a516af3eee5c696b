// Admin number management rules (SPEC.md §2 Telephony Number Management, §4 Number status badge).
import type { ApiAssignedUser, ApiProviderNumber } from '../../../contract/api';
import { matchesPhoneQuery, type PhoneQuery } from '../../../contract/phone-display';
import { formatDate, londonIsoDate } from './format';

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

export type NumberFilter = 'all' | 'active' | 'expired' | 'unassigned';
export const NUMBER_FILTERS: { value: NumberFilter; label: string }[] = [
  { value: 'all', label: 'All Numbers' },
  { value: 'active', label: 'Active Only' },
  { value: 'expired', label: 'Expired Only' },
  { value: 'unassigned', label: 'Unassigned Only' },
];

/** The first rule that applies wins. */
export function numberStatus(user: ApiAssignedUser | null, now: Date = new Date()): string {
  if (!user) return 'Unassigned';
  if (user.accountStatus === 'expired') return 'Expired';
  if (user.accountStatus === 'pending_approval') return 'Pending';
  if (user.trialExpiresAt) {
    const left = new Date(user.trialExpiresAt).getTime() - now.getTime();
    if (left >= 0 && left <= WEEK_MS) return 'Trial Ending Soon';
  }
  if (user.accountStatus === 'active') return 'Active';
  return user.accountStatus;
}

/** The provider's identifier: the one field named {provider}Sid. */
export function providerSid(n: ApiProviderNumber, provider: string): string {
  const own = n[`${provider}Sid`];
  if (typeof own === 'string') return own;
  const key = Object.keys(n).find((k) => k.endsWith('Sid'));
  return key ? String((n as unknown as Record<string, unknown>)[key]) : '';
}

function matchesNumberFilter(n: ApiProviderNumber, filter: NumberFilter): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'active':
      return n.assignedUser?.accountStatus === 'active';
    case 'expired':
      return n.assignedUser?.accountStatus === 'expired';
    case 'unassigned':
      return !n.assignedUser;
  }
}

/**
 * The phone number contains the text, or the business name, business email or email does
 * (ignoring case); a query that looks like a phone number also matches on its digits in any
 * UK spelling ("07700 900001" finds +447700900001, shown as +44 7700 900 001).
 */
function matchesNumberSearch(n: ApiProviderNumber, text: string, phone: PhoneQuery | null = null): boolean {
  if (!text) return true;
  const q = text.toLowerCase();
  const u = n.assignedUser;
  return (
    n.phoneNumber.includes(text) ||
    [u?.businessName, u?.businessEmail, u?.email].some((v) => (v ?? '').toLowerCase().includes(q)) ||
    (phone !== null && matchesPhoneQuery(n.phoneNumber, phone))
  );
}

export function filterNumbers(
  numbers: readonly ApiProviderNumber[],
  filter: NumberFilter,
  search: string,
  /** The search read as a phone number (usePhoneQuery), when it looks like one. */
  phone: PhoneQuery | null = null,
): ApiProviderNumber[] {
  return numbers.filter((n) => matchesNumberFilter(n, filter) && matchesNumberSearch(n, search, phone));
}

/** Where the savings alert sends the filter: expired numbers first, else unassigned ones. */
export function savingsFilter(expiredNumbers: number): NumberFilter {
  return expiredNumbers > 0 ? 'expired' : 'unassigned';
}

// RFC 4180 quoting, plus a leading apostrophe on user-typed text that a spreadsheet would run as a formula.
function csvCell(value: string, userText = false): string {
  const v = userText && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

const CSV_HEADER = ['Phone Number', 'Business Name', 'Email', 'Status', 'Monthly Cost', 'Purchase Date'];

export function numbersCsv(numbers: readonly ApiProviderNumber[], now: Date = new Date()): string {
  const rows = numbers.map((n) => [
    csvCell(n.phoneNumber),
    csvCell(n.assignedUser?.businessName ?? '', true),
    csvCell(n.assignedUser ? (n.assignedUser.businessEmail ?? n.assignedUser.email) : '', true),
    csvCell(numberStatus(n.assignedUser, now)),
    csvCell(`£${(n.monthlyCost ?? 0).toFixed(2)}`),
    csvCell(formatDate(n.dateCreated)),
  ]);
  return [CSV_HEADER.join(','), ...rows.map((r) => r.join(','))].join('\r\n') + '\r\n';
}

/** {provider}-numbers-YYYY-MM-DD.csv, dated in London. */
export function csvFileName(provider: string, now: Date = new Date()): string {
  return `${provider}-numbers-${londonIsoDate(now)}.csv`;
}
