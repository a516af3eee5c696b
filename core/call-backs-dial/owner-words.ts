import type { CallBackOutcome } from '../../contract/call-backs.js';
import { londonWall } from '../booking/rules/london-wall.js';

// The one line the owner is told after each try of a call-back (issue 56), in plain words: who
// was rung, how it went, and what the box does next. Fixed words, never a model's.

const hhmm = (at: Date): string => {
  const m = londonWall(at.getTime()).minute;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
};

/** What follows a try that did not reach anyone: one more try at a time, or none. */
const next = (retryAt: Date | null): string => (retryAt ? `We will try once more at ${hhmm(retryAt)}.` : 'That was the last try; they have your number if they want to call.');

/**
 * The owner's line for one try (`texted`: the caller was sent noAnswerText), or null when there is nothing worth their attention (a dial the
 * trunk failed before the phone rang: the next try, or the tracker, says the rest).
 */
export function ownerTryLine(outcome: CallBackOutcome, caller: string, retryAt: Date | null, texted: boolean): string | null {
  const text = texted ? ' We texted them to reply CALL or ring you.' : '';
  switch (outcome) {
    case 'no-answer':
      return `We tried to ring ${caller} back for you: no answer.${text} ${next(retryAt)}`;
    case 'busy':
      return `We tried to ring ${caller} back for you: the line was busy.${text} ${next(retryAt)}`;
    case 'answered':
      return `We rang ${caller} back for you and they answered. The call is in your call list.`;
    case 'machine':
      return `We rang ${caller} back for you and reached an answering machine: we left a short message asking them to ring you.`;
    case 'wrong-number':
      return `We rang ${caller} back for you: they said it was the wrong number, so we will not ring them again.`;
    case 'not-interested':
      return `We rang ${caller} back for you: they said they no longer need a call, so we will not ring them again.`;
    case 'failed':
      return null;
  }
}
