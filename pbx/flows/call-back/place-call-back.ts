import type { CallBackOutcome } from '../../../contract/call-backs.js';
import type { Log } from '../../../contract/log.js';
import type { CallPath } from '../../../core/ports/call-path.js';
import type { CallBackDial } from '../../../core/ports/call-back-dialler.js';
import type { LiveCallFeed } from '../../../core/ports/live-calls.js';
import type { PromptCache } from '../../../models/tts/index.js';
import type { AriRest } from '../../ari/types.js';
import { CallEnded, type CallSession } from '../../call-session.js';
import type { AgentOpening } from '../agent/agent-flow.js';
import { hangUp } from '../steps.js';
import { displayName } from '../transfer/leg-caller-id.js';
import { dialOwner, OWNER_LEG_ARG, OWNER_LEG_PREFIX, type TransferDeps } from '../transfer/put-through.js';
import type { FlowContext, FlowOutcome, OwnerProfile, VoicemailLimits } from '../types.js';
import { callBackOpeningFor } from './call-back-opening.js';
import { callBackOutcomeOf } from './dial-outcome.js';

// One call-back placed and held to its end (issue 56). The caller is rung through the trunk as a
// put-through rings a phone (dialOwner: the same leg registry, toll-fraud rules and daily
// minutes) showing the business's own number; answered, the call gets its own row in `calls`
// (from the caller to the business's number, agent mode, as an inbound agent call) and the agent
// holds it (pbx/flows/agent, opened by call-back-opening.ts); the row is made final as any
// call's, so the post-call job summarises it.

/** Prefix of a call-back's channel id: an owner leg, so a restarted core hangs up one it finds (stasis-app reconcile). */
const CALL_BACK_LEG = `${OWNER_LEG_PREFIX}call-back-`;

export interface CallBackPlan extends CallBackDial {
  ringSeconds: number;
}

export interface PlacedCallBack {
  outcome: CallBackOutcome;
  callId: number | null;
}

/** Runs the agent on a call it placed (installAgentFlow's callBacks.run). */
export type AgentOnCall = (ctx: FlowContext, opening: AgentOpening) => Promise<void>;

export interface CallBackPlaceDeps {
  rest: AriRest;
  log: Log;
  callPath: CallPath;
  prompts: PromptCache;
  limits: VoicemailLimits;
  dataDir?: string;
  transfer: TransferDeps;
  live?: LiveCallFeed;
  now: () => Date;
  /** The answered call is the app's while it lasts (End call on the Live page finds it). */
  hold(session: CallSession, callId: number): void;
  /** Hangs up if needed and makes the row final (the app's own end of a call). */
  finish(session: CallSession, callId: number, outcome: FlowOutcome): Promise<void>;
}

let seq = 0;

export async function placeCallBack(deps: CallBackPlaceDeps, agent: AgentOnCall, plan: CallBackPlan): Promise<PlacedCallBack> {
  const { rest, log, callPath, transfer } = deps;
  const owner = await ownerProfile(callPath, plan.userId);
  if (!owner) {
    log.warn({ callBackId: plan.callBackId, userId: plan.userId }, 'call-back: the business is gone; not dialling');
    return { outcome: 'failed', callId: null };
  }
  const legId = `${CALL_BACK_LEG}${plan.callBackId}-${Date.now()}-${++seq}`;
  // The business's number as the leg's own, so a put-through from the call shows it too.
  const leg = transfer.legs.open(legId, plan.to, plan.from);
  const name = displayName(plan.businessName);
  let callId: number | null = null;
  try {
    const dialled = await dialOwner(rest, transfer, leg, { userId: plan.userId, to: plan.to, ringSeconds: plan.ringSeconds, callerId: name ? `"${name}" <${plan.from}>` : plan.from, appArgs: `${OWNER_LEG_ARG},call-back` }, log);
    if (!dialled.placed) return { outcome: 'failed', callId: null };
    const rang = await dialled.answer;
    if (rang !== 'answered') {
      log.info({ callBackId: plan.callBackId, rang }, 'call-back: not answered');
      return { outcome: callBackOutcomeOf(rang), callId: null };
    }
    const opened = await callPath.openCall({ userId: plan.userId, channelId: legId, fromNumber: plan.to, toNumber: plan.from, mode: 'agent', direction: 'call-back', createdAt: deps.now() });
    callId = opened.call.id;
    deps.hold(leg, callId);
    const { opening, verdict } = callBackOpeningFor(plan, owner.voice, leg.whenGone(24 * 3600_000), log);
    const outcome: FlowOutcome = { answered: false };
    try {
      const target = await callPath.transferTarget(plan.userId).catch(() => ({ transferNumber: null, ringSeconds: 20 }));
      const ownerPhone = target.transferNumber ? { to: target.transferNumber, ringSeconds: target.ringSeconds } : undefined;
      await agent({ session: leg, rest, prompts: deps.prompts, log, callPath, owner, callId, limits: deps.limits, dataDir: deps.dataDir, outcome, transfer, ownerPhone, live: deps.live }, opening);
    } catch (err) {
      if (err instanceof CallEnded) log.info({ callBackId: plan.callBackId, callId }, 'call-back: the called party hung up');
      else log.error({ err, callBackId: plan.callBackId, callId }, 'call-back: the call failed; hanging up');
    } finally {
      await deps.finish(leg, callId, outcome);
    }
    return { outcome: verdict.outcome ?? 'answered', callId };
  } finally {
    if (!leg.gone) await hangUp({ session: leg, rest }).catch((err: unknown) => log.warn({ err, callBackId: plan.callBackId }, 'call-back: could not hang up'));
    transfer.legs.close(legId);
  }
}

async function ownerProfile(callPath: CallPath, userId: number): Promise<OwnerProfile | undefined> {
  const user = await callPath.owner(userId);
  if (!user) return undefined;
  return { userId, businessName: user.businessName, callGreeting: user.callGreeting, voice: user.voice, knowledgeBase: user.knowledgeBase, industry: user.industry, languages: user.agentLanguages, greetingLanguages: user.greetingLanguages, languageVoices: user.languageVoices, greetingRecordings: user.greetingRecordings };
}
