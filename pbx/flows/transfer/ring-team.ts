import type { CallSession } from '../../call-session.js';
import { CallEnded } from '../../call-session.js';
import { hangUp } from '../steps.js';
import type { FlowContext } from '../types.js';
import { dialOwner, OWNER_LEG_ARG, OWNER_LEG_PREFIX, personLegCallerId, type TransferDeps, type TransferResult } from './put-through.js';
import type { RingMember, RingRound } from './ring-plan.js';
import { startRingback } from './ringback.js';
import { answeredByNote, NOBODY_ANSWERED_NOTE } from './team-notes.js';

// "Ring the team first" (issue 58): the caller hears ringback while the phones of the team's
// working members ring, each on its own outbound leg placed as a put-through places the owner's
// (ARI originate into this Stasis app, the outbound rules checked per phone at the moment of
// dialling). The first leg to answer is bridged to the caller at once, with no briefing: the
// person picked up a ringing call, as on any hunt group. Every other leg is hung up the moment
// one answers (their phones get a CANCEL). Nobody answering leaves the caller for their flow.

interface Leg {
  member: RingMember;
  session: CallSession;
  id: string;
}

let seq = 0;

/**
 * Rings the plan's rounds in turn. Resolves true once the caller was put through and the call
 * has ended (either side hung up), false when nobody answered (the caller's flow goes on).
 * Throws CallEnded when the caller hangs up meanwhile; no phone is left ringing either way.
 */
export async function ringTeam(ctx: FlowContext, deps: TransferDeps, rounds: RingRound[]): Promise<boolean> {
  const { session, rest, log, callId } = ctx;
  const result: TransferResult = { outcome: 'no-answer', talkSeconds: 0, marks: {} };
  ctx.outcome.transfer = result;
  const callerGone = new Promise<never>((_, reject) => {
    void session.whenGone(24 * 3600_000).then((gone) => gone && reject(new CallEnded('caller hung up while the team was rung')));
  });
  callerGone.catch(() => undefined);
  const legs: Leg[] = [];
  const dialling: Array<Promise<unknown>> = [];
  const ringback = await startRingback(ctx);
  let bridge: string | undefined;
  try {
    let answered: Leg | undefined;
    result.marks.dialledAt = performance.now();
    for (const round of rounds) {
      answered = await Promise.race([ringRound(ctx, deps, round, legs, dialling), callerGone]);
      if (answered) break;
    }
    if (!answered) {
      log.info({ callId }, 'ring-first: nobody in the team answered');
      await ctx.callPath.attributeCall(callId, null, NOBODY_ANSWERED_NOTE).catch((err) => log.warn({ err, callId }, 'ring-first: could not note the ringing on the call'));
      return false;
    }
    // Nobody else's phone rings on once someone has the call. A leg still being placed is
    // waited for (a permit, one request): hung up before Asterisk has it, it would ring on.
    await Promise.allSettled(dialling);
    await hangUpAll(ctx, legs.filter((l) => l !== answered));
    await ringback.stop();
    bridge = `ring-team-${callId}-${++seq}`;
    await rest.createBridge(bridge);
    await rest.addToBridge(bridge, [session.channelId, answered.id]);
    const connectedAt = Date.now();
    result.marks.bridgedAt = performance.now();
    result.outcome = 'connected';
    ctx.live?.mode(callId, 'transfer');
    ctx.outcome.status = 'answered';
    log.info({ callId, staffId: answered.member.id }, 'ring-first: the caller is through to the member who answered');
    await ctx.callPath.attributeCall(callId, answered.member.id, answeredByNote(answered.member.name)).catch((err) => log.warn({ err, callId }, 'ring-first: could not note who answered on the call'));
    await Promise.race([answered.session.whenGone(24 * 3600_000), session.whenGone(24 * 3600_000)]);
    result.talkSeconds = Math.round((Date.now() - connectedAt) / 1000);
    return true;
  } finally {
    await Promise.allSettled(dialling);
    await hangUpAll(ctx, legs);
    for (const leg of legs) deps.legs.close(leg.id);
    if (bridge) await rest.destroyBridge(bridge).catch((err) => log.warn({ err, callId }, 'ring-first: could not remove the bridge'));
    await ringback.stop();
  }
}

/** Rings one round's phones together; the first leg answered, or undefined when none was. */
async function ringRound(ctx: FlowContext, deps: TransferDeps, round: RingRound, legs: Leg[], dialling: Array<Promise<unknown>>): Promise<Leg | undefined> {
  const { session, rest, log, owner, callId } = ctx;
  // Every phone of the round shows the same caller: read once, before any of them rings.
  const shown = await personLegCallerId(ctx, deps);
  const answers = round.members.map((member) => {
    const id = `${OWNER_LEG_PREFIX}${callId}-team-${++seq}`;
    const leg: Leg = { member, id, session: deps.legs.open(id, member.phone) };
    legs.push(leg);
    const placed = dialOwner(rest, deps, leg.session, { userId: owner.userId, to: member.phone, ringSeconds: round.seconds, ...shown, appArgs: `${OWNER_LEG_ARG},${session.channelId}` }, log);
    dialling.push(placed);
    return placed
      .then(async ({ answer }) => ((await answer) === 'answered' ? leg : undefined))
      .catch((err: unknown) => {
        // One phone that could not be rung (its permit unreadable, its events lost) leaves the others ringing.
        log.warn({ err, callId, channelId: id }, 'ring-first: could not ring a team member’s phone');
        return undefined;
      });
  });
  // The first phone to answer wins; a round ends unanswered only when every phone gave up.
  return new Promise<Leg | undefined>((resolve) => {
    let left = answers.length;
    for (const a of answers) void a.then((leg) => (leg ? resolve(leg) : --left === 0 && resolve(undefined)));
  });
}

async function hangUpAll(ctx: FlowContext, legs: Leg[]): Promise<void> {
  await Promise.all(
    legs.map((l) => hangUp({ session: l.session, rest: ctx.rest }).catch((err) => ctx.log.warn({ err, callId: ctx.callId, channelId: l.id }, 'ring-first: could not hang up a team member’s phone'))),
  );
}
