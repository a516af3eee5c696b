import type { DepositKind } from '../../../contract/enums.js';
import { PAYMENT_LIMITS, penceAsPounds as pounds } from '../../../contract/rules.js';

// A service's deposit (issue 59; docs/payments.md): none, a fixed amount, or the full price, and
// how long a pay link holds the slot. The schema bounds each number alone; these rules are how
// they fit together, in the sentences the console shows.

export interface DepositSettings {
  pricePence: number | null;
  depositKind: DepositKind;
  depositPence: number | null;
  depositHoldMinutes: number;
}

/** Said when a deposit is asked for before the owner's Stripe account is connected and tested. */
export const CONNECT_STRIPE_FIRST = 'Connect your Stripe account under Payments first: deposits are paid to it.';

export type DepositCheck = { ok: true; settings: DepositSettings } | { ok: false; message: string; field: string };

/** The body's fields (absent = none), checked together; a kept amount is dropped when no deposit is taken. */
export function checkDepositSettings(b: { pricePence?: number | null; depositKind?: DepositKind; depositPence?: number | null; depositHoldMinutes?: number }): DepositCheck {
  const L = PAYMENT_LIMITS;
  const pricePence = b.pricePence ?? null;
  const depositKind = b.depositKind ?? 'none';
  const depositHoldMinutes = b.depositHoldMinutes ?? L.holdMinutes.default;
  if (depositKind === 'none') return { ok: true, settings: { pricePence, depositKind, depositPence: null, depositHoldMinutes } };
  if (depositKind === 'full') {
    if (pricePence === null) return { ok: false, message: 'A deposit of the full price needs the service\'s price.', field: 'pricePence' };
    if (pricePence < L.depositPence.min || pricePence > L.depositPence.max) {
      return { ok: false, message: `A deposit of the full price must be from ${pounds(L.depositPence.min)} to ${pounds(L.depositPence.max)}; this price is ${pounds(pricePence)}.`, field: 'pricePence' };
    }
    return { ok: true, settings: { pricePence, depositKind, depositPence: null, depositHoldMinutes } };
  }
  const amount = b.depositPence ?? null;
  if (amount === null) return { ok: false, message: `A fixed deposit needs an amount from ${pounds(L.depositPence.min)} to ${pounds(L.depositPence.max)}.`, field: 'depositPence' };
  if (pricePence !== null && amount > pricePence) return { ok: false, message: `The deposit (${pounds(amount)}) cannot be more than the service's price (${pounds(pricePence)}).`, field: 'depositPence' };
  return { ok: true, settings: { pricePence, depositKind, depositPence: amount, depositHoldMinutes } };
}

/** What a booking of the service must pay first, in pence; null when no deposit is taken. */
export function depositNeeded(s: Pick<DepositSettings, 'depositKind' | 'depositPence' | 'pricePence'>): number | null {
  if (s.depositKind === 'fixed') return s.depositPence;
  if (s.depositKind === 'full') return s.pricePence;
  return null;
}

/** "£20", "£12.50": how an amount is said and written. */
export const depositPounds = pounds;
