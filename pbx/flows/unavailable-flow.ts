import type { UnavailableReason } from '../../core/ports/call-routing.js';
import { NOT_IN_SERVICE, REFUSED, unavailableMessage, WITHHELD_REFUSED } from '../../dialogue/spoken/call-lines.js';
import { FALLBACK_SOUNDS } from '../../dialogue/spoken/sounds.js';
import { answer, hangUp, say, type StepDeps } from './steps.js';
import type { FlowContext } from './types.js';
import type { PromptCache } from '../../models/tts/index.js';
import type { Log } from '../../contract/log.js';

/** A real business whose account cannot take calls: a polite message, then hang up. */
export function unavailableFlow(reason: UnavailableReason) {
  return async (ctx: FlowContext): Promise<void> => {
    await answer(ctx);
    ctx.outcome.answered = true;
    await say(ctx, unavailableMessage(reason, ctx.owner.businessName), ctx.owner.voice, FALLBACK_SOUNDS.goodbye);
    await hangUp(ctx);
  };
}

/** No business behind the number: the not-in-service message, then hang up. No call row. */
export async function notInServiceFlow(deps: StepDeps & { prompts: PromptCache; log: Pick<Log, 'warn'> }): Promise<void> {
  await answer(deps);
  await say(deps, NOT_IN_SERVICE, 'female', FALLBACK_SOUNDS.notInService);
  await hangUp(deps);
}

/** A caller the owner's call handling turns away (block list, withheld number): a short refusal, no recording. */
export function refusalFlow(reason: 'blocked' | 'withheld') {
  return async (ctx: FlowContext): Promise<void> => {
    await answer(ctx);
    ctx.outcome.answered = true;
    const [text, fallback] = reason === 'blocked' ? [REFUSED, FALLBACK_SOUNDS.refused] : [WITHHELD_REFUSED, FALLBACK_SOUNDS.withheldRefused];
    await say(ctx, text, ctx.owner.voice, fallback);
    await hangUp(ctx);
  };
}

/**
 * A caller screened as a nuisance before answering (issue 43), as the owner chose: `reject`
 * never answers (ARI's `rejected` is cause 21, which chan_pjsip sends as SIP 403 Forbidden);
 * `message` answers with the short refusal. No recording, no text.
 */
export function screenedFlow(action: 'reject' | 'message') {
  if (action === 'message') return refusalFlow('blocked');
  return async (ctx: FlowContext): Promise<void> => {
    if (ctx.session.gone || ctx.session.hangupAccepted) return;
    await ctx.rest.hangup(ctx.session.channelId, 'rejected');
    ctx.session.hangupAccepted = true;
  };
}
