import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

/** A code is good for this long: long enough to find the phone or open the mail. */
export const CODE_VALID_MS = 30 * 60_000;
/** Wrong codes before the pending change is dropped: six digits are not guessed in five tries. */
export const MAX_WRONG_CODES = 5;

export const newCode = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** Only the hash is stored: a copy of the database does not confirm anyone's phone. */
export const hashCode = (code: string): string => createHash('sha256').update(code.replace(/\s+/g, '')).digest('hex');

export type CodeVerdict = 'confirmed' | 'wrong' | 'expired' | 'too-many';

/** Whether `given` confirms the pending destination (pure). */
export function judgeCode(pending: { codeHash: string; expiresAt: Date; wrongAttempts: number }, given: string, now: Date): CodeVerdict {
  if (pending.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (pending.wrongAttempts >= MAX_WRONG_CODES) return 'too-many';
  const a = Buffer.from(hashCode(given), 'hex');
  const b = Buffer.from(pending.codeHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b) ? 'confirmed' : 'wrong';
}

/** The only text an unconfirmed number ever receives. */
export const codeText = (code: string) =>
  `Your call-answering confirmation code is ${code}. Enter it under Notification Settings to get call notifications on this number. Not you? Ignore this text.`;

/** The code for a team member's phone (issue 58): the owner enters it on the Team page, so the member hands it on. */
export const teamCodeText = (code: string) =>
  `Your call-answering confirmation code is ${code}. Give it to the person adding you to their team, so calls and messages for you can reach this phone. Not you? Ignore this text.`;

export const codeMail = (to: string, code: string) => ({
  to,
  subject: 'Your confirmation code',
  text: `Your confirmation code is ${code}.\n\nEnter it under Notification Settings to get call summaries at this address. It is valid for ${CODE_VALID_MS / 60_000} minutes.\n\nIf you did not ask for this, ignore this e-mail: nothing will be sent here.`,
});
