import type { Log } from '../../../contract/log.js';
import type { CallBackDialler, CallBackDialResult } from '../../../core/ports/call-back-dialler.js';
import type { ConversationSlot } from '../agent/admission.js';
import type { AgentOnCall, CallBackPlan, PlacedCallBack } from './place-call-back.js';

// The PBX's CallBackDialler (core/ports/call-back-dialler.ts): the core's sweep says who and
// when; this says whether the box can take one more conversation now, places the call, and
// reports how it ended. The engine slot is held from the dial to the hang-up, so an inbound
// caller arriving meanwhile still finds the one kept for them (slot-reserve.ts).

/** How long a call-back rings before it counts as not answered: about six rings, as a person's phone gives before its voicemail. */
const CALL_BACK_RING_SECONDS = 30;

/** What a call-back needs of the agent (installAgentFlow's `callBacks`). */
export interface AgentCallBacks {
  /** An engine slot only when one stays free for an inbound caller (and agent mode is on here); null otherwise. */
  admit(): ConversationSlot | null;
  run: AgentOnCall;
}

export function callBackDialler(o: {
  connected: () => boolean;
  /** Why the node takes no more calls now (its admission rule, slot-reserve.ts's callBackRefusal), or undefined. */
  busy?: () => string | undefined;
  agent: AgentCallBacks;
  place: (plan: CallBackPlan, agent: AgentOnCall) => Promise<PlacedCallBack>;
  log: Log;
  ringSeconds?: number;
}): CallBackDialler {
  return async (dial): Promise<CallBackDialResult> => {
    if (!o.connected()) return { placed: false, why: 'pbx-down' };
    const busy = o.busy?.();
    if (busy) {
      o.log.info({ callBackId: dial.callBackId, why: busy }, 'call-back: the node is busy (callers ringing in first); it waits');
      return { placed: false, why: 'no-slot' };
    }
    const slot = o.agent.admit();
    if (!slot) {
      o.log.info({ callBackId: dial.callBackId }, 'call-back: no engine slot to spare for it (inbound callers first); it waits');
      return { placed: false, why: 'no-slot' };
    }
    try {
      const placed = await o.place({ ...dial, ringSeconds: o.ringSeconds ?? CALL_BACK_RING_SECONDS }, o.agent.run);
      return { placed: true, ...placed };
    } catch (err) {
      o.log.error({ err, callBackId: dial.callBackId }, 'call-back: could not be placed');
      return { placed: true, outcome: 'failed', callId: null };
    } finally {
      slot.release();
    }
  };
}
