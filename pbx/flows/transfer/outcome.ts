import type { TransferOutcome } from '../../../contract/call-handling.js';

// What became of a call to the owner's phone, from the hang-up cause Asterisk reports on the
// outbound channel (ChannelDestroyed.cause, Q.850 numbering). Pure.

const USER_BUSY = 17; // SIP 486/600
const NO_USER_RESPONSE = 18; // SIP 408
const NO_ANSWER = 19; // SIP 480, or the dial timed out
const CALL_REJECTED = 21; // SIP 603/403
/** What ARI reports when originate's own timeout ends the ringing: no cause from the far end. */
const UNSPECIFIED = 0;

/** An owner's phone that was never answered: why, from Asterisk's cause. */
export function outcomeOfUnansweredLeg(cause: number | undefined): TransferOutcome {
  switch (cause) {
    case USER_BUSY:
      return 'busy';
    case CALL_REJECTED:
      return 'rejected';
    case NO_USER_RESPONSE:
    case NO_ANSWER:
    case UNSPECIFIED:
      return 'no-answer';
    default:
      return 'failed';
  }
}

