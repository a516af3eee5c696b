/**
 * The words a caller texts to stop or restart every text from a business: the carriers'
 * standard opt-out keywords (the set Twilio honours on long codes,
 * https://help.twilio.com/articles/223134027), matched on the whole text in any case, with
 * surrounding spaces and a final full stop or exclamation mark ignored ("Stop.", " STOP ").
 * CANCEL also stops while no booking is pending; there are no bookings yet, so it always stops.
 */
const STOP_WORDS = new Set(['STOP', 'STOP ALL', 'STOPALL', 'UNSUBSCRIBE', 'END', 'QUIT', 'CANCEL']);
const START_WORDS = new Set(['START', 'UNSTOP']);

export type OptWord = { kind: 'stop' | 'start'; word: string };

export function optWordOf(body: string): OptWord | null {
  const word = body.trim().replace(/[.!]+$/, '').replace(/\s+/g, ' ').toUpperCase();
  if (STOP_WORDS.has(word)) return { kind: 'stop', word };
  if (START_WORDS.has(word)) return { kind: 'start', word };
  return null;
}

/** "CALL" alone, any case (issue 56): a reply to the missed-call text asking to be rung back. */
export function isCallWord(body: string): boolean {
  return body.trim().replace(/[.!]+$/, '').toUpperCase() === 'CALL';
}

/** The confirmations, sent once per change (a second STOP while stopped gets nothing). */
export function stopConfirmation(businessName: string | null): string {
  return `You will get no more texts from ${businessName?.trim() || 'this business'}. Reply START to receive texts again.`;
}

export function startConfirmation(businessName: string | null): string {
  return `You will get texts from ${businessName?.trim() || 'this business'} again. Reply STOP to stop them.`;
}
