import { badRequest, HttpError } from '../http/errors.js';
import { teamCodeText } from '../destinations/destination-code.js';
import { ownerNumber } from '../destinations/pending.js';
import type { CodeSender } from '../destinations/send-code.js';
import { formatPhone } from '../../contract/phone.js';
import { cancelPhoneConfirmation, startPhoneConfirmation } from './phone-code.js';

const NO_SENDER = 'A phone can be confirmed once your business has its phone number: the code is texted from it. Please try again after your number is set up.';

/**
 * Texts a fresh code to a member's new phone (already held to validate-phone.ts's rules): the
 * only text that number gets until the code comes back. Sent from the business's own number, as
 * the owner's codes are; a failed send leaves nothing waiting.
 */
export async function sendStaffPhoneCode(s: CodeSender, ownerId: number, staffId: number, phone: string, now: Date): Promise<void> {
  const sender = (await ownerNumber(s.db, ownerId)) ?? s.messagingFrom;
  if (!sender && s.needsSender) throw badRequest(NO_SENDER);
  const code = await startPhoneConfirmation(s.db, staffId, phone, now);
  try {
    await s.gateway.send({ channel: 'sms', to: phone, businessNumber: sender ?? '', body: teamCodeText(code), key: `team-confirm-${staffId}-${now.getTime()}` });
  } catch {
    await cancelPhoneConfirmation(s.db, staffId);
    throw new HttpError(502, `The confirmation code could not be sent to ${formatPhone(phone)} just now. Please check the number and try again.`);
  }
}
