import type { CallRouting } from '../../../dialogue/agent/person-routing.js';
import type { FlowContext } from '../types.js';

/**
 * The team and the facts the routing rules need (issue 58), read once as the agent answers.
 * A failure costs only the team: the call goes on as the owner's alone, as before teams.
 */
export async function loadCallRouting(ctx: FlowContext, now: Date): Promise<(CallRouting & { ringSeconds: number }) | undefined> {
  const { callPath, owner, callId, log } = ctx;
  try {
    const [team, facts] = await Promise.all([callPath.team(owner.userId, now), callPath.routingFacts(owner.userId, callId, now)]);
    return { team, ...facts, canRing: ctx.transfer !== undefined, ringSeconds: team.ringSeconds };
  } catch (err) {
    log.warn({ err, callId }, 'agent: could not read the team; callers reach the owner only on this call');
    return undefined;
  }
}
