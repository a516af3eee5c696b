import type { CallTeam } from '../../../core/ports/call-path.js';
import { answer } from '../steps.js';
import type { CallFlow, FlowContext } from '../types.js';
import { ringFirstThen } from './ring-first.js';
import { teamRingPlan } from './ring-plan.js';
import { ringTeam } from './ring-team.js';

/**
 * The caller's flow (agent or voicemail), with the team's phones rung first when team settings
 * say so (ringFirst 'all' or 'in-order') and someone working now has a confirmed phone;
 * otherwise the owner's own "ring me first" (`owner`, from call handling) as before, or the flow.
 */
export function teamFirstThen(flow: CallFlow, owner: { to: string; ringSeconds: number } | undefined): CallFlow {
  const ownerFirst = owner ? ringFirstThen(flow, owner) : flow;
  return async (ctx) => {
    // Without OUTBOUND_ENDPOINT no phone can be rung: the team is not even read.
    if (ctx.resumed || !ctx.transfer) return ownerFirst(ctx);
    const rounds = teamRingPlan(await callTeam(ctx));
    if (rounds.length === 0) return ownerFirst(ctx);
    await answer(ctx);
    ctx.outcome.answered = true;
    if (await ringTeam(ctx, ctx.transfer, rounds)) return;
    await flow(ctx);
  };
}

/** The team as this call finds it, read once per call: later steps (the voicemail menu) reuse it. */
export async function callTeam(ctx: FlowContext): Promise<CallTeam> {
  ctx.team ??= Promise.resolve().then(() => ctx.callPath.team(ctx.owner.userId, new Date())).catch((err: unknown) => {
    // Unreadable team: the call goes on as for a business of one, never lost over it.
    ctx.log.warn({ err, callId: ctx.callId }, 'could not read the team; answering as usual');
    return { members: [], ringFirst: 'off', ringSeconds: 0, rules: [], onCallId: null, copyOwner: false } satisfies CallTeam;
  });
  return ctx.team;
}
