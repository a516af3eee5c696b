import { nationalFormat } from '../../contract/phone.js';
import type { Db } from '../db/client.js';
import { badRequest, forbidden, HttpError, tooManyRequests } from '../http/errors.js';
import { outboundRefusalNow, type OutboundPolicy } from '../outbound/index.js';
import type { CodeCall, CodeCallResult } from '../ports/code-call.js';
import { cancelPhoneConfirmation, startPhoneConfirmation } from './phone-code.js';

const NO_CALLER_ID = 'A landline can be confirmed once your business has its phone number: the code call comes from it. Please try again after your number is set up.';

/**
 * Rings a member's new landline (already held to validate-phone.ts's rules) and has the PBX read
 * a fresh code out: a landline takes no texts. The code's rules are the texted one's (30 minutes,
 * five tries, only the hash stored); the call is one the appliance places, so the outbound rules
 * (account, number kind, today's minutes) are asked first, as for a test transfer, and again by
 * the PBX at the moment of dialling. A call that cannot be placed leaves nothing waiting.
 * Resolves with the message for the owner.
 */
export async function callStaffPhoneCode(d: { db: Db; call: CodeCall; outbound: OutboundPolicy }, ownerId: number, staffId: number, phone: string, now: Date): Promise<string> {
  const refused = await outboundRefusalNow(d.db, ownerId, phone, d.outbound, now);
  if (refused?.kind === 'inactive') throw forbidden(refused.message);
  if (refused?.kind === 'daily-cap') throw tooManyRequests(refused.message);
  if (refused) throw badRequest(refused.message, { phone: refused.message });
  const code = await startPhoneConfirmation(d.db, staffId, phone, now);
  const said = nationalFormat(phone) ?? phone;
  let result: CodeCallResult;
  try {
    result = await d.call({ userId: ownerId, to: phone, code });
  } catch {
    result = { kind: 'not-placed' };
  }
  if (result.kind === 'calling') return `We are calling ${said} now to read out a code.`;
  await cancelPhoneConfirmation(d.db, staffId);
  switch (result.kind) {
    case 'no-phone-number':
      throw badRequest(NO_CALLER_ID);
    case 'pbx-down':
      throw new HttpError(503, 'The phone system is not connected right now. Please try again in a minute.');
    case 'not-placed':
      throw new HttpError(502, `The call to ${said} with the code could not be placed just now. Please check the number and try again.`);
  }
}
