import type { AgentVoicemailReason } from '../../../contract/enums.js';
import { AGENT_LINES } from '../../../dialogue/spoken/agent-lines.js';
import type { CallFlow, FlowContext } from '../types.js';
import { voicemailFlow } from '../voicemail/voicemail-flow.js';

/** A conversation's claim on the engines, held from answer to hang-up. */
export interface ConversationSlot {
  release(): void;
}

/**
 * Admission control for agent mode: a caller is never put into a conversation the engines
 * cannot serve within the latency budget. First, agent mode may be off on this node as a whole
 * (`agentOff`, issue 60: the language model still downloading, or the slow-box guard closed):
 * the caller then hears the owner's own greeting and leaves a voicemail, as in voicemail mode,
 * and the row says why. Then `admit` decides from the pools' counters (no I/O, at answer time);
 * an admitted caller keeps their claim to the end of the call, whatever arrives after them. A
 * caller turned away hears that every assistant is busy (instead of the owner's greeting), then
 * the tone, and leaves a voicemail; the call is tagged.
 */
export function withAdmission(conversation: CallFlow, admit: () => ConversationSlot | null, agentOff: (ctx: FlowContext) => AgentVoicemailReason | undefined = () => undefined): CallFlow {
  return async (ctx) => {
    const off = agentOff(ctx);
    if (off) return voicemailModeInstead(ctx, off);
    const slot = admit();
    if (!slot) return allBusyVoicemail(ctx);
    try {
      await conversation(ctx);
    } finally {
      slot.release();
    }
  };
}

async function voicemailModeInstead(ctx: FlowContext, reason: AgentVoicemailReason): Promise<void> {
  ctx.log.info({ callId: ctx.callId, reason }, reason === 'model' ? 'agent: the language model is not ready yet; answering in voicemail mode' : 'agent: the box is too slow for agent mode now; answering in voicemail mode');
  const tagged = ctx.callPath.markAgentVoicemail(ctx.callId, reason).catch((err: unknown) => ctx.log.error({ err, callId: ctx.callId }, 'agent: could not say on the call why it was answered in voicemail mode'));
  try {
    await voicemailFlow(ctx);
  } finally {
    await tagged;
  }
}

async function allBusyVoicemail(ctx: FlowContext): Promise<void> {
  ctx.log.info({ callId: ctx.callId }, 'agent: the engines are full; taking a voicemail instead');
  // Written beside the voicemail (the caller hears nothing of it); the flow ends after it lands.
  const tagged = ctx.callPath.markAgentBusy(ctx.callId).catch((err: unknown) => ctx.log.error({ err, callId: ctx.callId }, 'agent: could not tag the call as turned away'));
  try {
    await voicemailFlow({ ...ctx, owner: { ...ctx.owner, callGreeting: AGENT_LINES.allBusy } });
  } finally {
    await tagged;
  }
}
