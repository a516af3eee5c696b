import { setTimeout as sleep } from 'node:timers/promises';
import type { TransferOutcome } from '../../../contract/call-handling.js';
import type { Log } from '../../../contract/log.js';
import { storedNumber } from '../../../contract/phone.js';
import { AriNotFoundError } from '../../ari/types.js';
import { CallEnded, StepTimeout, type CallSession } from '../../call-session.js';
import { FALLBACK_SOUNDS } from '../../../dialogue/spoken/sounds.js';
import { hangUp, say } from '../steps.js';
import type { FlowContext } from '../types.js';
import { briefingText, CANNOT_TAKE_CALL_NOW, PRESS_A_KEY, PUTTING_THROUGH } from '../../../dialogue/spoken/transfer.js';
import { outboundEndpoint } from './dial-string.js';
import { legCallerId, type LegCallerId } from './leg-caller-id.js';
import { outcomeOfUnansweredLeg } from './outcome.js';
import { startRingback } from './ringback.js';

// Warm transfer: the caller hears "Let me try to put you through" and ringback while the core
// calls the owner's phone over the trunk (ARI originate into this Stasis app). The owner hears a
// briefing only they hear and presses 1 to take the call (the two are bridged) or 2 for
// voicemail. Anything but a 1 (2, no answer in time, busy, rejected, no key: the owner's own
// voicemail picking up must never swallow the caller) hands the caller back to their flow.

/** First argument of an owner leg's StasisStart: tells it from an inbound call. */
export const OWNER_LEG_ARG = 'owner-leg';
/** Prefix of the owner legs' channel ids: a restarted core hangs up legs it finds (their caller is taken over alone). */
export const OWNER_LEG_PREFIX = 'owner-leg-';

export { DEFAULT_TRANSFER_TIMING, type OwnerLegs, type TransferDeps, type TransferRequest, type TransferResult, type TransferTiming } from './transfer-types.js';
import { DEFAULT_TRANSFER_TIMING, type TransferDeps, type TransferRequest, type TransferResult, type TransferTiming } from './transfer-types.js';

let legSeq = 0;

/**
 * Tries to put the caller through to the owner. Resolves with what happened; on anything but
 * "connected" the caller has been told the owner cannot take the call and is back where they
 * were (their flow goes on). Throws CallEnded when the caller hangs up meanwhile.
 */
export async function putThrough(ctx: FlowContext, deps: TransferDeps, req: TransferRequest): Promise<TransferResult> {
  const { session, rest, log, owner, callId } = ctx;
  const timing = { ...DEFAULT_TRANSFER_TIMING, ...deps.timing };
  const result: TransferResult = { outcome: 'failed', talkSeconds: 0, marks: {} };
  ctx.outcome.transfer = result;
  const callerGone = new Promise<never>((_, reject) => {
    void session.whenGone(24 * 3600_000).then((gone) => gone && reject(new CallEnded('caller hung up during the transfer')));
  });
  callerGone.catch(() => undefined);
  const untilCallerLeaves = <T>(p: Promise<T>) => Promise.race([p, callerGone]);

  const legId = `${OWNER_LEG_PREFIX}${callId}-${++legSeq}`;
  const leg = deps.legs.open(legId, req.to);
  const legDeps = { session: leg, rest, prompts: ctx.prompts, log };
  let bridgeToDestroy: string | undefined;
  let ringback: { stop(): Promise<void> } = { stop: async () => undefined };
  let dialling: Promise<{ answer: Promise<'answered' | TransferOutcome> } | undefined> = Promise.resolve(undefined);
  try {
    // The owner's phone starts ringing while the caller hears "Let me try to put you through".
    result.marks.dialledAt = performance.now();
    dialling = personLegCallerId(ctx, deps).then((shown) => dialOwner(rest, deps, leg, { userId: owner.userId, to: req.to, ringSeconds: req.ringSeconds, ...shown, appArgs: `${OWNER_LEG_ARG},${session.channelId}` }, log));
    await say(ctx, PUTTING_THROUGH, owner.voice, FALLBACK_SOUNDS.puttingThrough);
    ringback = await startRingback(ctx);
    const rang = await untilCallerLeaves((await dialling)!.answer);
    if (rang !== 'answered') return await backToCaller(ctx, ringback, result, rang);
    if (!req.bridgeId) {
      // Ready before the owner's key, so taking the call costs as few requests as possible.
      bridgeToDestroy = `transfer-${callId}`;
      await rest.createBridge(bridgeToDestroy);
    }

    const key = await untilCallerLeaves(askOwner(legDeps, owner.voice, briefingText({ businessName: owner.businessName, callerNumber: session.callerNumber, callerWords: req.callerWords }), timing));
    result.marks.keyAt = performance.now();
    if (key !== '1') return await backToCaller(ctx, ringback, result, key === '2' || key === 'hung-up' ? 'declined' : 'no-answer');

    await ringback.stop();
    if (req.bridgeId) await rest.addToBridge(req.bridgeId, [legId]);
    else await rest.addToBridge(bridgeToDestroy!, [session.channelId, legId]);
    const connectedAt = Date.now();
    result.marks.bridgedAt = performance.now();
    result.outcome = 'connected';
    ctx.live?.mode(callId, 'transfer');
    ctx.outcome.status = 'answered';
    log.info({ callId }, 'transfer: caller put through to the owner');
    // Either side hanging up ends the call; the talk time is counted up to then.
    await Promise.race([leg.whenGone(24 * 3600_000), session.whenGone(24 * 3600_000)]);
    result.talkSeconds = Math.round((Date.now() - connectedAt) / 1000);
    return result;
  } catch (err) {
    // The caller gave up before the owner took the call: for the owner, a call they did not answer.
    if (err instanceof CallEnded && result.outcome !== 'connected') result.outcome = 'no-answer';
    throw err;
  } finally {
    // A caller who hangs up during "putting you through" must not leave the owner's phone ringing.
    await dialling.catch(() => undefined);
    await hangUp(legDeps).catch((err) => log.warn({ err, callId }, 'transfer: could not hang up the owner’s phone'));
    deps.legs.close(legId);
    if (bridgeToDestroy) await rest.destroyBridge(bridgeToDestroy).catch((err) => log.warn({ err, callId }, 'transfer: could not remove the bridge'));
    await ringback.stop();
  }
}

/**
 * Rings the owner's phone on the leg `leg` (already registered, so no event is missed) and
 * waits until it is answered (in the Stasis app) or gives up: busy, rejected, no answer, failed.
 */
export async function ringOwner(
  rest: FlowContext['rest'],
  deps: TransferDeps,
  leg: CallSession,
  o: OwnerCall,
  log: Log,
): Promise<'answered' | TransferOutcome> {
  return (await dialOwner(rest, deps, leg, o, log)).answer;
}

export interface OwnerCall {
  /** The owner the call is placed for: their account and daily minutes decide whether it is. */
  userId: number;
  to: string;
  ringSeconds: number;
  callerId: string;
  /** Headers for the INVITE, as channel variables (leg-caller-id.ts). */
  variables?: Record<string, string>;
  appArgs: string;
}

/**
 * What a call placed to a person's phone for this caller shows (leg-caller-id.ts). With
 * `caller`, Asterisk's presentation of the caller's number is read first: a caller whose
 * trunk sent their number marked private (Privacy: id) has a number on the channel all the same.
 */
export async function personLegCallerId(ctx: Pick<FlowContext, 'session' | 'rest' | 'owner' | 'log'>, deps: Pick<TransferDeps, 'presents'>): Promise<LegCallerId> {
  const { session } = ctx;
  const callerPresentation =
    deps.presents === 'caller'
      ? await ctx.rest.getVariable(session.channelId, 'CALLERID(pres)').catch((err: unknown) => {
          ctx.log.warn({ err, channelId: session.channelId }, 'transfer: could not read whether the caller’s number may be shown; showing the appliance number');
          return null;
        })
      : null;
  return legCallerId({ presents: deps.presents, businessName: ctx.owner.businessName, did: storedNumber(session.did), callerNumber: session.callerNumber, callerPresentation });
}

/**
 * Places the call to the owner's phone; resolves once Asterisk has taken the request (so a
 * hang-up after it finds the channel), with how the ringing ends. `placed` is false when the
 * outbound rules or the trunk refused it outright (`answer` is then 'failed' already).
 */
export async function dialOwner(
  rest: FlowContext['rest'],
  deps: TransferDeps,
  leg: CallSession,
  o: OwnerCall,
  log: Log,
): Promise<{ placed: boolean; answer: Promise<'answered' | TransferOutcome> }> {
  // Checked at the moment of dialling, whatever was decided when the caller arrived.
  const permit = await deps.legs.permit(o.userId, o.to);
  if ('refused' in permit) {
    log.info({ channelId: leg.channelId, userId: o.userId, why: permit.refused }, 'transfer: not calling the owner’s phone');
    return { placed: false, answer: Promise.resolve('failed') };
  }
  const answeredOrGone = leg.waitFor((e) => e.type === 'StasisStart' || e.type === 'ChannelDestroyed', {
    what: 'the owner’s phone',
    // Asterisk ends the ringing itself at ringSeconds; this only covers its events going missing.
    timeoutMs: (o.ringSeconds + 10) * 1000,
  });
  try {
    await rest.originate({ endpoint: outboundEndpoint(deps.endpointTemplate, o.to), app: deps.app, appArgs: o.appArgs, callerId: o.callerId, variables: o.variables, timeoutSeconds: o.ringSeconds, channelId: leg.channelId });
  } catch (err) {
    log.warn({ err, channelId: leg.channelId }, 'transfer: the call to the owner could not be placed');
    return { placed: false, answer: Promise.resolve('failed') };
  }
  // Asterisk ends the ringing at ringSeconds and the core the answered call at its limit: the most it can hold the trunk.
  deps.legs.placed(leg.channelId, o.userId, o.ringSeconds + permit.answeredSeconds);
  const answer = answeredOrGone.then(
    (first): 'answered' | TransferOutcome => {
      if (first.type === 'ChannelDestroyed') return outcomeOfUnansweredLeg(first.cause);
      hangUpAtLimit(rest, leg, permit.answeredSeconds, log);
      return 'answered';
    },
    (err: unknown): TransferOutcome => {
      if (err instanceof StepTimeout) return 'no-answer';
      throw err;
    },
  );
  answer.catch(() => undefined); // the caller may be gone before anyone awaits it
  return { placed: true, answer };
}

/**
 * The answered call to the owner's phone is hung up once it has lasted `seconds`
 * (PUT_THROUGH_MAX_SECONDS, or what was left of the owner's day), whoever is on it: the
 * caller's own call then ends as after any put-through. Asterisk 20's build here has no
 * func_timeout (TIMEOUT(absolute)) and an ARI originate no Dial L(), so the core keeps the
 * clock; a core that dies meanwhile hangs up every owner leg it finds when it is back.
 */
function hangUpAtLimit(rest: FlowContext['rest'], leg: CallSession, seconds: number, log: Log): void {
  void leg.whenGone(seconds * 1000).then(async (gone) => {
    if (gone) return;
    log.info({ channelId: leg.channelId, limitSeconds: seconds }, 'transfer: the call to the owner’s phone reached its time limit: hanging up');
    await rest.hangup(leg.channelId, 'normal').catch((err: unknown) => {
      if (!(err instanceof AriNotFoundError)) log.warn({ err, channelId: leg.channelId }, 'transfer: could not hang up the owner’s phone at its time limit');
    });
  });
}

async function backToCaller(ctx: FlowContext, ringback: { stop(): Promise<void> }, result: TransferResult, outcome: TransferOutcome): Promise<TransferResult> {
  result.outcome = outcome;
  ctx.log.info({ callId: ctx.callId, outcome }, 'transfer: the owner did not take the call');
  await ringback.stop();
  await say(ctx, CANNOT_TAKE_CALL_NOW, ctx.owner.voice, FALLBACK_SOUNDS.cannotTakeCallNow);
  return result;
}

type OwnerKey = '1' | '2' | 'none' | 'hung-up';

/** Briefs the owner and waits for 1 or 2; a key pressed during the briefing cuts it short. */
export async function askOwner(deps: { session: CallSession; rest: FlowContext['rest']; prompts: FlowContext['prompts']; log: Log }, voice: FlowContext['owner']['voice'], briefing: string, timing: TransferTiming): Promise<OwnerKey> {
  const { session: leg } = deps;
  const keyPressed = leg
    .waitFor((e) => e.type === 'ChannelDtmfReceived' && (e.digit === '1' || e.digit === '2'), { what: 'the owner’s key', timeoutMs: 10 * 60_000 })
    .then((e): OwnerKey => (e.digit === '1' ? '1' : '2'))
    .catch((err): OwnerKey => {
      if (err instanceof CallEnded) return 'hung-up';
      throw err;
    });
  const stopPrompts = new AbortController();
  const prompting = (async (): Promise<OwnerKey> => {
    await say(deps, briefing, voice, FALLBACK_SOUNDS.briefing);
    await sleep(timing.keyWaitMs, undefined, { signal: stopPrompts.signal });
    await say(deps, PRESS_A_KEY, voice, FALLBACK_SOUNDS.briefing);
    await sleep(timing.lastKeyWaitMs, undefined, { signal: stopPrompts.signal });
    return 'none';
  })().catch((err): Promise<OwnerKey> => {
    // The owner hung up mid-prompt, or a key ended the prompting: keyPressed has the answer.
    if (err instanceof CallEnded || stopPrompts.signal.aborted) return keyPressed;
    throw err;
  });
  const key = await Promise.race([keyPressed, prompting]);
  stopPrompts.abort();
  // A key during the briefing: the rest of it would hold the owner back from the caller.
  for (const id of leg.playbacksInProgress()) await deps.rest.stopPlayback(id).catch(() => undefined);
  return key;
}
