import { shortWhen } from '../../../dialogue/language/dates.js';
import { londonWall } from '../../booking/rules/london-wall.js';

// What the deposit texts say (pure): to the caller on the caller-texts road, and to the owner.
// Amounts are the booking's own pence, never a figure from Stripe's answer or a browser.

/** 2000 → "£20.00". */
export function pounds(pence: number): string {
  return `£${(pence / 100).toFixed(2)}`;
}

/** "14:30" (London): the hold is at most a day, so the hour alone says when; a later day names it. */
export function heldUntil(due: Date, now: Date): string {
  const d = londonWall(due.getTime());
  const clock = `${String(Math.floor(d.minute / 60)).padStart(2, '0')}:${String(d.minute % 60).padStart(2, '0')}`;
  return d.day === londonWall(now.getTime()).day ? clock : shortWhen(due);
}

export interface DepositTextFacts {
  business: string;
  service: string;
  start: Date;
  pence: number;
}

export function payLinkText(f: DepositTextFacts, due: Date, now: Date, url: string): string {
  return `${f.business}: your ${f.service} on ${shortWhen(f.start)} is held until ${heldUntil(due, now)}. Pay the ${pounds(f.pence)} deposit to confirm: ${url}`;
}

/** The confirmation states the owner's written policy: what happens to the deposit if the caller cancels. */
export function paidText(f: DepositTextFacts, policy: string | null): string {
  const base = `${f.business}: thank you, your ${pounds(f.pence)} deposit is paid and your ${f.service} on ${shortWhen(f.start)} is confirmed. Reply C to cancel.`;
  return policy?.trim() ? `${base} ${policy.trim()}` : base;
}

export function releasedText(f: DepositTextFacts): string {
  return `${f.business}: the deposit for your ${f.service} on ${shortWhen(f.start)} was not paid in time, so the time has been released. Please call us to book again.`;
}

export function refundedText(f: DepositTextFacts): string {
  return `${f.business}: your ${pounds(f.pence)} deposit for the ${f.service} on ${shortWhen(f.start)} is being refunded to your card.`;
}

export function keptText(f: DepositTextFacts): string {
  return `${f.business}: as our deposit policy says, the ${pounds(f.pence)} deposit for the ${f.service} on ${shortWhen(f.start)} is not refunded on cancellation.`;
}

/** The owner's push alert when a held booking's deposit is paid: the booking now stands. */
export function ownerPaidNote(f: DepositTextFacts & { callerName: string; callerNumber: string }): string {
  return `${f.callerName} (${f.callerNumber}) paid the ${pounds(f.pence)} deposit: ${f.service} on ${shortWhen(f.start)} is booked.`;
}

export function ownerReleasedNote(f: DepositTextFacts & { callerName: string; callerNumber: string }): string {
  return `${f.callerName} (${f.callerNumber}) did not pay the ${pounds(f.pence)} deposit for ${f.service} on ${shortWhen(f.start)}: the time was released.`;
}

/** A payment that came after its hold was released: the slot may be gone, so the money goes back and the owner decides. */
export function ownerLatePaymentNote(f: DepositTextFacts & { callerName: string; callerNumber: string }): string {
  return `${f.callerName} (${f.callerNumber}) paid the ${pounds(f.pence)} deposit for ${f.service} on ${shortWhen(f.start)} after the hold was released: it is being refunded. Call them if you can still fit them in.`;
}
