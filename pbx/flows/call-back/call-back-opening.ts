import { setTimeout as sleep } from 'node:timers/promises';
import type { CallBackOutcome } from '../../../contract/call-backs.js';
import type { Log } from '../../../contract/log.js';
import { answeringMachineMessage, type CallBackDial } from '../../../core/ports/call-back-dialler.js';
import { CALL_BACK_NOT_INTERESTED, CALL_BACK_WRONG_NUMBER, callBackContext, callBackOpening } from '../../../dialogue/spoken/call-back-lines.js';
import type { Voice } from '../../../models/tts/index.js';
import type { AgentOpening } from '../agent/agent-flow.js';
import { leaveMessage, whoPickedUp } from './pickup.js';
import { refusalInFirstTurns } from './refusal-words.js';

// How the agent opens a call-back once it is answered (issue 56): it listens first (a machine
// gets the short message and the call ends), then a person hears the opening with the
// disclosure and the agent goes on from the first call's summary; a called party who says it is
// the wrong number or not interested in their first turns hears one apology and the call ends.

/** After the last frame leaves, Asterisk still has it in its jitter buffer (as the agent's goodbye). */
const TAIL_MS = 300;

/** What the opening found out, read when the call has ended. */
export interface OpeningVerdict {
  /** Set when the call ended for a reason other than a conversation that ran its course. */
  outcome?: Extract<CallBackOutcome, 'machine' | 'wrong-number' | 'not-interested'>;
}

export function callBackOpeningFor(dial: CallBackDial, voice: Voice, gone: Promise<boolean>, log: Log): { opening: AgentOpening; verdict: OpeningVerdict } {
  const verdict: OpeningVerdict = {};
  const opening: AgentOpening = {
    lines: [callBackOpening(dial.businessName)],
    context: callBackContext(dial.firstCallSummary),
    async prelude(media, speech) {
      const pickup = await whoPickedUp(media, gone);
      log.info({ callBackId: dial.callBackId, pickup }, 'call-back: answered');
      if (pickup.kind === 'person') return 'converse';
      verdict.outcome = 'machine';
      // Never the caller's details: anyone in the house may play the message back.
      await leaveMessage(media, speech, voice, answeringMachineMessage(dial.businessName, dial.from), log);
      await sleep(TAIL_MS);
      return 'ended';
    },
    watch(conversation) {
      return (lines) => {
        if (verdict.outcome) return;
        const refusal = refusalInFirstTurns(lines.filter((l) => l.speaker === 'Caller').map((l) => l.text));
        if (!refusal) return;
        verdict.outcome = refusal;
        log.info({ callBackId: dial.callBackId, refusal }, 'call-back: the called party turned it down; apologising and ending');
        // Said at once: it supersedes the reply the model was about to give to those words.
        void conversation.closeWith([refusal === 'wrong-number' ? CALL_BACK_WRONG_NUMBER : CALL_BACK_NOT_INTERESTED]);
      };
    },
  };
  return { opening, verdict };
}
