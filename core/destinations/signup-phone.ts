import type { User } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { sendDestinationCode, type CodeSender } from './send-code.js';

/**
 * Starts the confirmation of the phone typed into the anonymous sign-up form, once an admin has
 * approved the account: the same code, expiry, five tries and texts as a changed notification
 * number, and only to a number the box may text. The form itself texts nothing (anyone can
 * fill it in), and until the code comes back nothing else is texted there (core/notify/policy.ts).
 *
 * Resolves to why no code went out (a number the box may not text, no sender yet, the provider
 * failing), or undefined when one did or none is needed. The approval stands either way: the
 * owner can save the number under Notification Settings for a code later.
 */
export async function confirmSignupPhone(s: CodeSender, owner: User, now: Date): Promise<string | undefined> {
  if (!owner.phoneNumber || owner.phoneConfirmedAt || owner.notificationNumber) return undefined;
  try {
    await sendDestinationCode(s, owner.id, 'sms', owner.phoneNumber, now);
    return undefined;
  } catch (err) {
    if (err instanceof HttpError) return err.message;
    throw err;
  }
}
