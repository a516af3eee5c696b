// A booking's deposit in the owner's words (issue 59): what the badge on a booking says.
// The states are contract/enums.ts DEPOSIT_STATES; times are London's.
import type { DepositKind, DepositState } from '../../../contract/enums';
import { formatDate } from './format';
import { formatPence } from './money';

const clock = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/**
 * "Awaiting deposit until 14:30" (a hold ends within 24 hours, so on another London day the date
 * is said too: "until 14:30 on 03/12/2026"), "Deposit paid", "Released: not paid", "Deposit
 * refunded", "Deposit kept"; "Deposit needed: caller not texted" when the caller could not get a
 * link and the owner was asked instead.
 */
export function depositWords(state: DepositState, dueAt: string | null, now: Date = new Date()): string {
  switch (state) {
    case 'awaiting': {
      const due = dueAt ? new Date(dueAt) : null;
      if (!due || Number.isNaN(due.getTime())) return 'Awaiting deposit';
      const sameDay = formatDate(due) === formatDate(now);
      return `Awaiting deposit until ${clock.format(due)}${sameDay ? '' : ` on ${formatDate(due)}`}`;
    }
    case 'paid':
      return 'Deposit paid';
    case 'expired':
      return 'Released: not paid';
    case 'refunded':
      return 'Deposit refunded';
    case 'kept':
      return 'Deposit kept';
    case 'requested':
      return 'Deposit needed: caller not texted';
  }
}

/** The badge's colour: amber while something waits, green once paid, grey when it is over. */
export function depositTone(state: DepositState): 'amber' | 'green' | 'blue' | 'gray' {
  switch (state) {
    case 'awaiting':
    case 'requested':
      return 'amber';
    case 'paid':
      return 'green';
    case 'refunded':
      return 'blue';
    case 'expired':
    case 'kept':
      return 'gray';
  }
}

/**
 * A service's deposit on its card in Services: "£20.00 deposit, paid within 60 minutes" or "The
 * full price (£45.00) paid first, within 30 minutes"; null when none is taken (or the amount it
 * needs is missing, which the server refuses to save).
 */
export function serviceDepositWords(s: { depositKind: DepositKind; depositPence: number | null; pricePence: number | null; depositHoldMinutes: number }): string | null {
  const within = `within ${s.depositHoldMinutes} minutes`;
  if (s.depositKind === 'fixed' && s.depositPence !== null) return `${formatPence(s.depositPence)} deposit, paid ${within}`;
  if (s.depositKind === 'full' && s.pricePence !== null) return `The full price (${formatPence(s.pricePence)}) paid first, ${within}`;
  return null;
}
