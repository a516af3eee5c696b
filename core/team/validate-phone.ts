import { toE164 } from '../../contract/phone.js';
import { putThroughRefusal, type Invalid, type TransferGuard } from '../call-handling/validate.js';
import { textRefusal } from '../outbound/dialable.js';

export const NOT_A_PHONE = 'Give their phone as a UK mobile number, e.g. 07700 900123 or +447700900123.';

/**
 * A member's phone (pure): the owner's put-through number's rules (not a line that leads back to
 * the appliance; a UK mobile or landline, premium-rate and abroad refused with the toll-fraud
 * sentences), and then, since it is confirmed by a texted code and texted messages for them,
 * one that takes texts (the outbound rules' code sentence: a landline is asked to be a mobile).
 */
export function validateStaffPhone(raw: string, guard: TransferGuard): string | Invalid {
  const e164 = toE164(raw.trim());
  if (!e164) return { field: 'phone', message: NOT_A_PHONE };
  const refused = putThroughRefusal(e164, guard) ?? textRefusal(e164, guard.outboundAllow);
  return refused ? { field: 'phone', message: refused } : e164;
}
