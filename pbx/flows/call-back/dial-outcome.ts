import type { TransferOutcome } from '../../../contract/call-handling.js';
import type { CallBackOutcome } from '../../../contract/call-backs.js';

// A call-back that was never answered: how its try ended, from how the ringing ended
// (transfer/outcome.ts reads Asterisk's Q.850 cause). Pure.

export function callBackOutcomeOf(rang: TransferOutcome): CallBackOutcome {
  switch (rang) {
    case 'busy':
      return 'busy';
    // A phone that rang out, or whose owner pressed decline: nobody spoke, so another try may reach them.
    case 'no-answer':
    case 'rejected':
    case 'declined':
      return 'no-answer';
    default:
      return 'failed';
  }
}
