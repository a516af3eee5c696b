// The assistant's call-back tracker in words (issue 56): what Call Logs' tracker says about each
// call-back, and when the tracker is shown at all. Pure, so each wording is unit-tested.
import type { ApiCallBack } from '../../../contract/api';
import type { CallBackOutcome, CallBacksBy, CallBackState } from '../../../contract/call-backs';
import type { BadgeTone } from '../components/ui';

/** The states as docs/call-backs.md's tracker table names them, with the badge's colour. */
export const CALL_BACK_STATE_WORDS: Record<CallBackState, { label: string; tone: BadgeTone }> = {
  waiting: { label: 'Waiting', tone: 'amber' },
  calling: { label: 'Calling', tone: 'blue' },
  answered: { label: 'Answered', tone: 'green' },
  'no-answer': { label: 'No answer', tone: 'red' },
  done: { label: 'Done', tone: 'green' },
  cancelled: { label: 'Cancelled', tone: 'gray' },
};

/** How one try went, as the owner would say it. */
const CALL_BACK_OUTCOME_WORDS: Record<CallBackOutcome, string> = {
  answered: 'answered',
  'no-answer': 'no answer',
  busy: 'busy',
  machine: 'answering machine, message left',
  'wrong-number': 'wrong number',
  'not-interested': 'not interested',
  failed: 'did not connect',
};

/** "No tries yet", "1 try: no answer", "2 tries: last busy". */
export function callBackTriesLine(cb: Pick<ApiCallBack, 'tries' | 'lastOutcome'>): string {
  if (cb.tries === 0) return 'No tries yet';
  const outcome = cb.lastOutcome ? CALL_BACK_OUTCOME_WORDS[cb.lastOutcome] : null;
  if (cb.tries === 1) return outcome ? `1 try: ${outcome}` : '1 try';
  return outcome ? `${cb.tries} tries: last ${outcome}` : `${cb.tries} tries`;
}

/**
 * Who closed a finished call-back, when the state alone does not say (done by the owner's own
 * ring, or by the assistant's call ending while the owner had already rung).
 */
export function callBackDoneByLine(cb: Pick<ApiCallBack, 'state' | 'doneBy'>): string | null {
  if (cb.state === 'done' && cb.doneBy === 'owner') return 'Closed by you';
  return null;
}

/** Cancel stops only a waiting call-back (the server's rule; a 409 in words otherwise). */
export const canCancelCallBack = (cb: Pick<ApiCallBack, 'state'>): boolean => cb.state === 'waiting';

/** "Take it myself" works while nobody is ringing and nobody has spoken to them: waiting, given up, or cancelled. */
export const canTakeCallBack = (cb: Pick<ApiCallBack, 'state'>): boolean => cb.state === 'waiting' || cb.state === 'no-answer' || cb.state === 'cancelled';

/**
 * The tracker is shown when the assistant may ring callers back, or when it has call-backs to
 * show (a business that switched back to ringing itself still sees the ones already made).
 * `by` is undefined while unknown (not yet read, or a team member's sign-in, who cannot read it).
 */
export function showCallBackTracker(by: CallBacksBy | undefined, rows: number): boolean {
  return rows > 0 || (by !== undefined && by !== 'owner');
}
