import type { CallBackDesk, CallBackDeskFactory } from '../../../dialogue/agent/call-back-desk.js';
import type { FlowContext } from '../types.js';

/**
 * The call-back desk for one agent call (issue 56), or undefined when the owner rings callers
 * back themselves, or their setting could not be read: the agent then takes the caller's wish
 * as a message for the owner, exactly as before.
 */
export async function openCallBackDesk(factory: CallBackDeskFactory | undefined, ctx: FlowContext): Promise<CallBackDesk | undefined> {
  if (!factory) return undefined;
  try {
    return await factory({ userId: ctx.owner.userId, callId: ctx.callId, callerNumber: ctx.session.callerNumber });
  } catch (err) {
    ctx.log.warn({ err, callId: ctx.callId }, 'agent: the call-back setting could not be read; this call agrees no call-backs');
    return undefined;
  }
}
