import { isUkLandline, nationalFormat, toE164 } from '../../contract/phone.js';
import { putThroughRefusal, type Invalid, type TransferGuard } from '../call-handling/validate.js';

export const NOT_A_PHONE = 'Give their phone as a UK mobile number, e.g. 07700 900123 or +447700900123.';

/** How a phone's code reaches it: a landline cannot take texts, so it is rung and the code read out. */
type CodeRoute = 'text' | 'call';

/** A member's phone that may be confirmed, and how its code will reach it. */
export interface StaffPhone {
  phone: string;
  codeBy: CodeRoute;
}

/** The box places no calls (no OUTBOUND_ENDPOINT), so a landline, which takes no texts, cannot get its code. */
const noCallsRefusal = (e164: string) =>
  `${nationalFormat(e164) ?? e164} is a landline, which gets its code by a phone call, and this appliance does not place calls (its operator has not set up outbound calls). Enter a mobile, which gets its code by text.`;

/**
 * A member's phone (pure): the owner's put-through number's rules (not a line that leads back to
 * the appliance; a UK mobile or landline, premium-rate, personal, non-geographic and abroad
 * refused with the toll-fraud sentences, the operator's OUTBOUND_ALLOW winning). A solicitor's
 * desk phone is a landline (issue 58 item 1): it is confirmed by a call that reads the code out,
 * which needs a box that can call out (`canCall`); any other number gets its code by text.
 */
export function validateStaffPhone(raw: string, guard: TransferGuard, canCall: boolean): StaffPhone | Invalid {
  const e164 = toE164(raw.trim());
  if (!e164) return { field: 'phone', message: NOT_A_PHONE };
  const refused = putThroughRefusal(e164, guard);
  if (refused) return { field: 'phone', message: refused };
  if (!isUkLandline(e164)) return { phone: e164, codeBy: 'text' };
  return canCall ? { phone: e164, codeBy: 'call' } : { field: 'phone', message: noCallsRefusal(e164) };
}
