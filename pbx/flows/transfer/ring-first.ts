import { answer } from '../steps.js';
import type { CallFlow } from '../types.js';
import { putThrough } from './put-through.js';

/**
 * "Ring me first": the owner's phone is tried before `flow` (voicemail or agent) answers the
 * caller; the flow runs only when the owner does not take the call. Without an outbound
 * trunk (OUTBOUND_ENDPOINT unset) the flow answers as usual.
 */
export function ringFirstThen(flow: CallFlow, owner: { to: string; ringSeconds: number }): CallFlow {
  return async (ctx) => {
    if (!ctx.transfer) {
      ctx.log.warn({ callId: ctx.callId }, 'ring-first is set but OUTBOUND_ENDPOINT is not: answering without trying the owner');
      return flow(ctx);
    }
    await answer(ctx);
    ctx.outcome.answered = true;
    const { outcome } = await putThrough(ctx, ctx.transfer, { to: owner.to, ringSeconds: owner.ringSeconds });
    if (outcome !== 'connected') await flow(ctx);
  };
}
