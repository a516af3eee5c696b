import type { CallHandlingDecision, CallerTag, TransferOutcome } from '../contract/call-handling.js';
import type { Call, CallPath, HandlingPlan } from '../core/ports/call-path.js';
import type { PromptCache } from '../models/tts/index.js';
import type { AriEvent, AriRest, ChannelSnapshot } from './ari/types.js';
import { CallEnded, CallSession } from './call-session.js';
import { finaliseCall, type FinishDeps } from './finish-call.js';
import type { RecordingRetries } from './recordings/recording-retries.js';
import type { RecordingDisk } from './recordings/disk.js';
import { flowForMode } from './flows/index.js';
import { FALLBACK_SOUNDS } from '../dialogue/spoken/sounds.js';
import { hangUp, play } from './flows/steps.js';
import type { Log } from '../contract/log.js';
import type { CallFlow, FlowOutcome, VoicemailLimits } from './flows/types.js';
import { notInServiceFlow, refusalFlow, screenedFlow, unavailableFlow } from './flows/unavailable-flow.js';
import { storedNumber } from '../contract/phone.js';
import { recordingNameFor } from './flows/voicemail/voicemail-flow.js';
import { routeCall } from './routing.js';
import { teamFirstThen } from './flows/transfer/team-first.js';
import { ringOwnerForTest } from './flows/transfer/test-transfer.js';
import { placeCodeCall, type CodeCallPlan } from './flows/code-call/read-code.js';
import type { CodeCallResult } from '../core/ports/code-call.js';
import type { LiveCallFeed } from '../core/ports/live-calls.js';
import { placeForwardingCheck, type ForwardingCheckCall } from './flows/forwarding-check/check-call.js';
import { takeForwardingCheck } from './flows/forwarding-check/check-leg.js';
import { looksLikeForwardingCheck, type ForwardingCheckStartResult } from '../core/ports/forwarding-check.js';
import type { Voice } from '../models/tts/index.js';
import { OWNER_LEG_ARG, OWNER_LEG_PREFIX, type OwnerLegs, type TransferDeps } from './flows/transfer/put-through.js';
import { withClosedHoursGreeting } from './flows/voicemail/voicemail-greeting.js';
import type { AiMode } from '../contract/api.js';
import { admitCallMyLine } from './call-my-line/admit.js';
import type { Admission } from './admission/admission-gate.js';
import { parseAriTime } from './ari/ari-time.js';
import { placeCallBack, type AgentOnCall, type CallBackPlan, type PlacedCallBack } from './flows/call-back/place-call-back.js';

export interface StasisAppDeps {
  app: string;
  rest: AriRest;
  /** The core's call path (core/calls/call-path.ts): routing, call handling, the call rows. */
  callPath: CallPath;
  prompts: PromptCache;
  log: Log;
  recordingsDir: string;
  /** $DATA_DIR: owners' recorded voicemail greetings are played from it (flows/voicemail/voicemail-greeting.ts). */
  dataDir?: string;
  /** Writes stored recordings into recordingsDir (recordings/disk.ts). */
  disk: RecordingDisk;
  now: () => Date;
  callFinished: Array<(callId: number) => void>;
  recordingRetries: RecordingRetries;
  limits: VoicemailLimits;
  /** The agent-mode flow (installAgentFlow); pbx/flows/index.ts says where agent mode goes without it. */
  agentFlow?: CallFlow;
  /** The owner's call-handling rules for this caller now (hours, lists, ring-first); default CallPath.handlingPlan, none → the owner's mode. */
  handling?: (userId: number, aiMode: AiMode, callerNumber: string, now: Date) => Promise<HandlingPlan | undefined>;
  /** OUTBOUND_ENDPOINT: set → flows may put callers through to the owner's phone. */
  outboundEndpoint?: string;
  /** OUTBOUND_PRESENT_CALLER: what a call to a person's phone shows as its caller (default the appliance number). */
  outboundPresents?: TransferDeps['presents'];
  transferTiming?: TransferDeps['timing'];
  /** Admission before answering (pbx/admission/): calls in progress, load and set-up rate. */
  admission?: Admission;
  /** The console's test calls (core/call-my-line/registry.ts): whose a Call my line endpoint is, once its browser connected. */
  callMyLine?: { lineOf(endpoint: string): { userId: number; did: string } | undefined };
  /** The Live page's registry (core/ports/live-calls.ts): flows report a put-through to it. */
  live?: LiveCallFeed;
  /** Listen in and take over (issue 54, pbx/live-control): sees each event first and keeps its own channels' (browser legs, snoops). */
  liveControl?: { onEvent(e: AriEvent): boolean; holds(channel: Pick<ChannelSnapshot, 'id' | 'name'>): boolean };
}

function callerTagOf(d: CallHandlingDecision | undefined): CallerTag | null {
  if (d?.kind === 'refuse') return d.reason === 'blocked' ? 'blocked' : 'withheld-refused';
  return d?.vip ? 'vip' : null;
}

/** `channel:<id>` → `<id>` (playbacks and recordings name their channel this way). */
function channelOfTarget(uri: string | undefined): string | undefined {
  return uri?.startsWith('channel:') ? uri.slice('channel:'.length) : undefined;
}

/**
 * extensions.conf [test-call]: Stasis(app, DID, test-call), reachable only from a console test call's endpoint.
 * The dialplan's word, kept as installed Asterisk configurations have it (the feature is "Call my line").
 */
const CALL_MY_LINE_ARG = 'test-call';

function isCallMyLine(channel: ChannelSnapshot, args?: string[]): boolean {
  return (args?.[1] ?? channel.dialplan.app_data?.split(',')[2]?.trim()) === CALL_MY_LINE_ARG;
}

/** Stasis(app, DID) puts the DID in app_data after the app name; the extension is the fallback. */
function didOf(channel: ChannelSnapshot, args: string[] = []): string {
  return args[0] || channel.dialplan.app_data?.split(',')[1]?.trim() || channel.dialplan.exten;
}

/**
 * The Stasis application: one CallSession per channel, events routed to it by channel id,
 * each call run by its flow and always finished (row written, channel hung up). After every
 * (re)connection it reconciles with what Asterisk still holds, so no call is left in dead
 * air and none is handled twice (calls.channel_id is unique).
 */
export class StasisApp {
  private readonly sessions = new Map<string, CallSession>();
  /** Calls with a row, by its id: End call on the Live page finds the channel here. */
  private readonly byCallId = new Map<number, CallSession>();
  /** Calls the core placed to owners' phones (warm transfers), by channel id. */
  private readonly legs = new Map<string, CallSession>();
  private readonly transfer: TransferDeps | undefined;
  private readonly running = new Set<Promise<void>>();
  private accepting = true;
  private readonly finish: FinishDeps;

  constructor(private readonly deps: StasisAppDeps) {
    this.finish = { callPath: deps.callPath, rest: deps.rest, log: deps.log, recordingsDir: deps.recordingsDir, disk: deps.disk, callFinished: deps.callFinished, recordingRetries: deps.recordingRetries };
    // Calls placed to owners' phones, from when Asterisk took them: each counts at its bound while in progress (its row), at what it took once the leg closes.
    const placedAt = new Map<string, { userId: number; at: Date; row: Promise<number | undefined> }>();
    const legs: OwnerLegs = {
      open: (channelId, number, did = number) => {
        // Opened before the originate request: its first events may beat the HTTP answer.
        const leg = new CallSession(
          { id: channelId, name: '', state: 'Down', caller: { name: '', number }, dialplan: { context: '', exten: '' }, creationtime: '' },
          did,
        );
        this.legs.set(channelId, leg);
        return leg;
      },
      permit: async (userId, number) => {
        const permit = await deps.callPath.outboundPermit(userId, number, deps.now());
        return permit.refusal ? { refused: permit.refusal.message } : { answeredSeconds: permit.answeredSeconds };
      },
      placed: (channelId, userId, heldSeconds) => {
        const at = deps.now();
        // Counted at once, so a put-through or forwarding check for this owner starting meanwhile sees it.
        const row = deps.callPath.recordOutboundCall({ userId, startedAt: at, seconds: heldSeconds }).catch((err: unknown) => {
          deps.log.error({ err, channelId, userId }, 'could not count a call placed to the owner’s phone');
          return undefined;
        });
        this.track(row.then(() => undefined));
        placedAt.set(channelId, { userId, at, row });
      },
      close: (channelId) => {
        this.legs.delete(channelId);
        const placed = placedAt.get(channelId);
        if (!placed) return;
        placedAt.delete(channelId);
        // Ring and talk time together: the trunk is held from the dial, answered or not.
        const seconds = Math.ceil((deps.now().getTime() - placed.at.getTime()) / 1000);
        this.track(
          (async () => {
            const id = await placed.row;
            // A row that could not be written when the call was placed is written now, as it ended.
            if (id === undefined) await deps.callPath.recordOutboundCall({ userId: placed.userId, startedAt: placed.at, seconds });
            else await deps.callPath.settleOutboundCall(id, seconds);
          })().catch((err: unknown) => deps.log.error({ err, channelId, userId: placed.userId }, 'could not count a call placed to the owner’s phone')),
        );
      },
    };
    this.transfer = deps.outboundEndpoint ? { legs, app: deps.app, endpointTemplate: deps.outboundEndpoint, presents: deps.outboundPresents ?? 'called', timing: deps.transferTiming } : undefined;
  }

  get activeCalls(): number {
    return this.sessions.size;
  }

  onEvent(e: AriEvent): void {
    if (e.application && e.application !== this.deps.app) return;
    if (this.deps.liveControl?.onEvent(e)) return;
    if (e.type === 'StasisStart' && e.channel && e.args?.[0] !== OWNER_LEG_ARG) return this.onStasisStart(e.channel, e.args, parseAriTime(e.timestamp));
    const id = e.channel?.id ?? channelOfTarget(e.playback?.target_uri ?? e.recording?.target_uri);
    if (!id) return;
    const session = this.sessions.get(id) ?? this.legs.get(id);
    if (session) return session.deliver(e);
    // An owner's phone answering after its caller's transfer ended (or after a restart): nobody to connect.
    if (e.type === 'StasisStart') void this.deps.rest.hangup(id, 'normal').catch(() => undefined);
  }

  private onStasisStart(channel: ChannelSnapshot, args?: string[], ariNowMs?: number): void {
    if (this.sessions.has(channel.id)) return;
    if (!this.accepting) {
      // Shutting down: a congestion signal now beats a caller left ringing into silence.
      void this.deps.rest.hangup(channel.id, 'congestion').catch(() => undefined);
      return;
    }
    // Past the node's knee a caller is refused before the answer: congestion (cause 34) is
    // SIP 503, so the carrier or Kamailio tries elsewhere instead of this box answering late.
    const refused = channel.state === 'Up' ? undefined : this.deps.admission?.admit(channel.id, this.sessions.size, ariNowMs);
    if (refused !== undefined) {
      this.deps.log.warn({ channelId: channel.id, from: channel.caller.number, reason: refused }, 'node full: refusing a new call before answering (SIP 503)');
      void this.deps.rest.hangup(channel.id, 'congestion').catch(() => undefined);
      return;
    }
    const did = didOf(channel, args);
    const admitted = this.admitCallMyLine(channel, did, isCallMyLine(channel, args));
    if (!admitted) return this.deps.admission?.left(channel.id);
    const callMyLine = admitted.kind === 'call-my-line';
    // From the appliance number to itself: perhaps a forwarding check coming back (one lookup to
    // know). The owner's own "Call my line" never is one, whatever caller id it carries.
    if (!callMyLine && looksLikeForwardingCheck(channel.caller.number, did)) this.track(this.checkOrCall(channel, did));
    else this.track(this.handleCall(channel, did, callMyLine));
  }

  /**
   * A call from a Call my line endpoint goes on only as its owner's test call to their own number
   * (pbx/call-my-line/admit.ts); anything else from one is hung up before it is answered (cause
   * 21: SIP 403), with no call row, so no owner is texted about it. Undefined: refused.
   */
  private admitCallMyLine(channel: ChannelSnapshot, did: string, markedCallMyLine: boolean): { kind: 'ordinary' | 'call-my-line' } | undefined {
    const verdict = admitCallMyLine({ channelName: channel.name, did, markedCallMyLine }, (endpoint) => this.deps.callMyLine?.lineOf(endpoint));
    if (verdict.kind !== 'refused') return verdict;
    this.deps.log.warn({ channelId: channel.id, channel: channel.name, reason: verdict.reason }, 'refused a test call at Stasis');
    void this.deps.rest.hangup(channel.id, 'rejected').catch(() => undefined);
    return undefined;
  }

  /** A forwarding check coming back is taken and ended; any other call goes its usual way. */
  private async checkOrCall(channel: ChannelSnapshot, did: string): Promise<void> {
    const { callPath, log, now } = this.deps;
    const check = await callPath.forwardingChecks.recognise(did, channel.caller.number, now()).catch((err: unknown) => {
      log.warn({ err, channelId: channel.id }, 'could not look for a forwarding check; handling the call as usual');
      return undefined;
    });
    if (!check) return this.handleCall(channel, did);
    const session = new CallSession(channel, did);
    this.sessions.set(channel.id, session);
    try {
      await takeForwardingCheck({ rest: this.deps.rest, log, checks: callPath.forwardingChecks, now }, session, check);
    } finally {
      // No call row: endCall only hangs up and forgets the session.
      await this.endCall(session, undefined, { answered: true });
    }
  }

  private track(work: Promise<void>): void {
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }

  private async handleCall(channel: ChannelSnapshot, rawDid: string, callMyLine = false): Promise<void> {
    const { callPath, rest, prompts, log } = this.deps;
    const session = new CallSession(channel, rawDid);
    this.sessions.set(channel.id, session);
    const outcome: FlowOutcome = { answered: false };
    let callId: number | undefined;
    try {
      // Nuisance screening (issue 43) is the one lookup before the answer: a number on the
      // owner's spam list or the box-wide list is turned away before it costs an answer. One
      // index lookup (bench/screening.ts); a failure lets the call through rather than lose it.
      const screen = callMyLine || channel.state === 'Up' ? undefined : await this.screen(channel, rawDid);
      // Every flow starts by answering, so the answer goes out before any other lookup, and the
      // lookups wait for it: in a burst of callers each is answered within moments of
      // arriving, not after the routing and row writes of every call ahead of it. A failed
      // answer (the caller already gone) still gets its row; the flow's answer step reports it.
      // A screened caller the owner wants rejected is never answered: the carrier gets SIP 403.
      if (channel.state !== 'Up' && screen?.action !== 'reject') {
        // How late the answer came is what admission by set-up rate judges the node by.
        await session.answer(rest).then(
          () => this.deps.admission?.answered(channel.id),
          () => undefined,
        );
      }
      const route = await routeCall(callPath, rawDid, this.deps.now());
      const { decision } = route;
      if (decision.kind === 'not-in-service') {
        log.info({ did: route.did, channelId: channel.id }, 'call to a number with no business: not in service');
        await notInServiceFlow({ session, rest, prompts, log });
        return;
      }
      // The owner's call handling (hours, block and VIP lists, withheld numbers), decided once.
      const handling = this.deps.handling ?? callPath.handlingPlan;
      const plan = decision.kind === 'answer' && !screen ? await handling(decision.userId, decision.mode, session.callerNumber, this.deps.now()) : undefined;
      const handled = plan?.decision;
      // A backup or an operator's sqlite3 session may hold the write lock: the row is retried
      // with the thread free (other calls keep their audio), for up to 20 s; then goodbye.
      const opened = await callPath.openCall({
        userId: decision.userId,
        channelId: channel.id,
        fromNumber: session.callerNumber,
        toNumber: route.did,
        mode: decision.kind === 'unavailable' ? 'unavailable' : handled?.kind === 'answer' ? handled.mode : decision.mode,
        createdAt: new Date(session.startedAt),
        callerTag: callerTagOf(handled),
        period: handled?.kind === 'answer' ? handled.period : null,
        testCall: callMyLine,
        screenedBy: screen && decision.kind === 'answer' ? screen.by : null,
      });
      if (opened.existing && opened.call.endedAt) {
        log.warn({ channelId: channel.id, callId: opened.call.id }, 'channel already handled; hanging up the leftover');
        await hangUp({ session, rest });
        return;
      }
      callId = opened.call.id;
      this.byCallId.set(callId, session);
      const owner = handled?.kind === 'answer' && handled.greeting ? withClosedHoursGreeting(route.owner!, handled.greeting) : route.owner!;
      const flow = decision.kind === 'unavailable' ? unavailableFlow(decision.reason) : screen ? screenedFlow(screen.action) : this.flowFor(decision.mode, plan);
      const ownerPhone = plan?.transferNumber ? { to: plan.transferNumber, ringSeconds: plan.ringSeconds } : undefined;
      await flow({ session, rest, prompts, log, callPath, owner, callId, limits: this.deps.limits, dataDir: this.deps.dataDir, outcome, resumed: opened.existing, transfer: this.transfer, ownerPhone, live: this.deps.live });
    } catch (err) {
      if (err instanceof CallEnded) log.info({ channelId: channel.id, callId }, 'caller hung up');
      else {
        log.error({ err, channelId: channel.id, callId }, 'call flow failed; saying goodbye and hanging up');
        // Best effort, briefly: a caller is told goodbye rather than cut off in silence.
        if (!session.hangupRequested) await play({ session, rest }, FALLBACK_SOUNDS.goodbye, 5000).catch(() => undefined);
      }
    } finally {
      await this.endCall(session, callId, outcome);
    }
  }

  /** The screening verdict for this caller, or undefined to take the call as usual. */
  private async screen(channel: ChannelSnapshot, rawDid: string): Promise<{ by: 'owner' | 'box'; action: 'reject' | 'message' } | undefined> {
    try {
      const v = await this.deps.callPath.screenBeforeAnswer(storedNumber(rawDid), channel.caller.number, this.deps.now());
      if (!v.screen) return undefined;
      this.deps.log.info({ channelId: channel.id, by: v.by, action: v.action }, 'screened a nuisance caller before answering');
      return { by: v.by, action: v.action };
    } catch (err) {
      this.deps.log.warn({ err, channelId: channel.id }, 'could not look the caller up on the spam lists; taking the call');
      return undefined;
    }
  }

  /** "Test transfer": rings the owner's transfer number with a sample briefing (Services.testTransfer). */
  async testOwnerPhone(owner: { userId: number; to: string; ringSeconds: number; businessName: string | null; voice: Voice; callerId: string }): Promise<'answered' | TransferOutcome> {
    if (!this.transfer) throw new Error('OUTBOUND_ENDPOINT is not set');
    return ringOwnerForTest({ rest: this.deps.rest, prompts: this.deps.prompts, log: this.deps.log, transfer: this.transfer }, owner);
  }

  /** "Check my forwarding": rings the owner's business line from their appliance number (Services' ForwardingCheckStart). */
  async startForwardingCheck(c: ForwardingCheckCall): Promise<ForwardingCheckStartResult> {
    if (!this.transfer) throw new Error('OUTBOUND_ENDPOINT is not set');
    return placeForwardingCheck({ rest: this.deps.rest, log: this.deps.log, transfer: this.transfer, checks: this.deps.callPath.forwardingChecks, now: this.deps.now }, c);
  }

  /** A team member's landline rung with its confirmation code read out (core/ports/code-call.ts). */
  async readCodeTo(c: CodeCallPlan): Promise<CodeCallResult> {
    if (!this.transfer) throw new Error('OUTBOUND_ENDPOINT is not set');
    return placeCodeCall({ rest: this.deps.rest, prompts: this.deps.prompts, log: this.deps.log, transfer: this.transfer }, c);
  }

  /** Issue 56: one call-back placed and held to its end (pbx/flows/call-back/place-call-back.ts); the app finishes its row as any call's. */
  placeCallBack(plan: CallBackPlan, agent: AgentOnCall): Promise<PlacedCallBack> {
    if (!this.transfer) throw new Error('OUTBOUND_ENDPOINT is not set');
    const { rest, log, callPath, prompts, limits, dataDir, live, now } = this.deps;
    const hold = (session: CallSession, callId: number) => this.byCallId.set(callId, session);
    const work = placeCallBack({ rest, log, callPath, prompts, limits, dataDir, live, now, transfer: this.transfer, hold, finish: (s, id, o) => this.endCall(s, id, o) }, agent, plan);
    this.track(work.then(() => undefined, () => undefined));
    return work;
  }

  /** The owner's flow for this caller, as their call handling says. */
  private flowFor(mode: AiMode, plan: HandlingPlan | undefined): CallFlow {
    const decision = plan?.decision;
    if (!decision) return flowForMode(mode, this.deps.agentFlow);
    if (decision.kind === 'refuse') return refusalFlow(decision.reason);
    const flow = flowForMode(decision.mode, this.deps.agentFlow);
    // Messages only: the flow runs without a way to call out, so no menu or ring reaches a phone.
    if (plan.messageOnly) return (ctx) => flow({ ...ctx, transfer: undefined });
    // The team's ring-first (issue 58) comes before the owner's own; without it the owner's as before.
    return teamFirstThen(flow, decision.ringFirst && plan.transferNumber ? { to: plan.transferNumber, ringSeconds: plan.ringSeconds } : undefined);
  }

  /**
   * End call from the Live page: the caller's channel is hung up as a normal hang-up, so the
   * flow finishes as when the caller hangs up (the recording kept, the agent's transcript
   * stored) and endCall makes the row final. False when the call is not in progress here.
   */
  async endLiveCall(callId: number): Promise<boolean> {
    const session = this.byCallId.get(callId);
    if (!session || session.gone) return false;
    await hangUp({ session, rest: this.deps.rest });
    return true;
  }

  /** Hangs up if needed, waits for the channel to leave, then makes the row final. */
  private async endCall(session: CallSession, callId: number | undefined, outcome: FlowOutcome): Promise<void> {
    const { log } = this.deps;
    try {
      if (!session.gone) {
        // A caller who hung up is already being taken down by Asterisk: our own DELETE would race
        // its StasisEnd and only earn a 404. Ask only if the channel does not leave on its own.
        const leftOnItsOwn = session.hangupRequested && (await session.whenGone(5000));
        if (!leftOnItsOwn) {
          await hangUp({ session, rest: this.deps.rest }).catch((err) => log.warn({ err, channelId: session.channelId }, 'hang-up failed'));
          if (!(await session.whenGone(5000))) session.markGone(); // events lost: end on Asterisk's clock as extrapolated
        }
      } else if (!session.leftConfirmed) {
        // Only inferred gone (events lost): make sure no caller is left on an open line.
        await this.deps.rest.hangup(session.channelId, 'normal').catch(() => undefined);
      }
    } finally {
      this.sessions.delete(session.channelId);
      if (callId !== undefined) this.byCallId.delete(callId);
      this.deps.admission?.left(session.channelId);
    }
    if (callId === undefined) return;
    try {
      await finaliseCall(this.finish, { id: callId, startedAt: session.startedAt, endedAt: session.endedAt ?? session.ariNow() }, outcome);
    } catch (err) {
      log.error({ err, callId }, 'could not finish the call row');
    }
  }

  /**
   * After a (re)connection: events sent while the socket was down are lost, but Asterisk
   * keeps the app's channels. Sessions whose channel vanished end now; the rest ask ARI
   * what they missed; channels we do not know (core restarted) are taken over.
   */
  async reconcile(): Promise<void> {
    const { rest, log, callPath } = this.deps;
    let ids: string[];
    const snapshotAt = Date.now();
    try {
      ids = await rest.appChannelIds(this.deps.app);
    } catch (err) {
      log.warn({ err }, 'reconcile: cannot list the app’s channels');
      return;
    }
    const alive = new Set(ids);
    for (const session of [...this.sessions.values(), ...this.legs.values()]) {
      // A call that arrived after the snapshot was asked for is not in it, yet very much alive.
      if (session.createdLocalMs >= snapshotAt) continue;
      if (!alive.has(session.channelId)) session.markGone();
      else await session.resync(rest).catch((err) => log.warn({ err, channelId: session.channelId }, 'reconcile: resync failed'));
    }
    for (const id of ids) {
      if (this.sessions.has(id) || this.legs.has(id) || this.deps.liveControl?.holds({ id, name: '' })) continue;
      if (id.startsWith(OWNER_LEG_PREFIX)) {
        // A transfer a previous run started: its caller is taken over on their own, so the leg is ended.
        log.info({ channelId: id }, 'reconcile: hanging up an owner’s phone left from an earlier run');
        void rest.hangup(id, 'normal').catch(() => undefined);
        continue;
      }
      const channel = await rest.getChannel(id).catch(() => null);
      if (!channel || this.sessions.has(id)) continue;
      if (this.deps.liveControl?.holds(channel)) {
        // A listen or take-over line an earlier run bridged: its browser rings again if it wants.
        void rest.hangup(id, 'normal').catch(() => undefined);
        continue;
      }
      log.info({ channelId: id }, 'reconcile: taking over a call already in the app');
      if (!this.accepting) void rest.hangup(id, 'congestion').catch(() => undefined);
      else {
        const did = didOf(channel);
        const admitted = this.admitCallMyLine(channel, did, isCallMyLine(channel));
        if (admitted) this.track(this.handleCall(channel, did, admitted.kind === 'call-my-line'));
      }
    }
    for (const row of await callPath.openCalls()) {
      if (row.channelId && !alive.has(row.channelId) && !this.sessions.has(row.channelId)) this.track(this.finishOrphan(row));
    }
    // Recordings an earlier failure (disk full) left on Asterisk: try them now Asterisk is reachable.
    this.deps.recordingRetries.kick();
  }

  /** A row left open by an earlier run whose channel is gone: keep any message Asterisk still has. */
  private async finishOrphan(row: Call): Promise<void> {
    if (!row.channelId || (await this.deps.callPath.findCallByChannel(row.channelId))?.endedAt) return;
    const at = this.deps.now().getTime();
    this.deps.log.warn({ callId: row.id }, 'finishing a call left open by an earlier run');
    // Its real end time is unknown: duration is left at 0 rather than guessed.
    await finaliseCall(this.finish, { id: row.id, startedAt: at, endedAt: at }, { answered: true, recordingName: recordingNameFor(row.id), message: 'unknown' });
  }

  /**
   * Graceful stop: no new calls; calls in progress may finish for up to `boundMs`, then the
   * rest are hung up and finished (rows written, recordings kept).
   */
  async drain(boundMs: number): Promise<void> {
    this.accepting = false;
    const settled = () => Promise.allSettled([...this.running]).then(() => true);
    const timeout = (ms: number) => new Promise<false>((r) => setTimeout(() => r(false), ms).unref());
    if (await Promise.race([settled(), timeout(boundMs)])) return;
    this.deps.log.warn({ calls: this.sessions.size }, 'drain bound reached; hanging up the remaining calls');
    for (const s of this.sessions.values()) void hangUp({ session: s, rest: this.deps.rest }).catch(() => undefined);
    await Promise.race([settled(), timeout(10_000)]);
  }
}
