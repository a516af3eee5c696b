import path from 'node:path';
import { startNodeLoad } from './admission/node-load.js';
import type { CallPath } from '../core/ports/call-path.js';
import type { CallMyLineLines } from '../core/ports/call-my-line.js';
import type { ForwardingCheckStart, ForwardingCheckStartResult } from '../core/ports/forwarding-check.js';
import type { HealthReport, PbxHost, ServiceHooks } from '../core/ports/pbx-host.js';
import type { BackoffPolicy } from '../core/ports/retry.js';
import type { TestTransfer, TestTransferResult } from '../core/ports/test-transfer.js';
import type { CodeCall } from '../core/ports/code-call.js';
import type { LiveCallControl } from '../core/ports/live-calls.js';
import { codeCallThrough } from './flows/code-call/read-code.js';
import { createPromptCache, createTextToSpeech, type PromptCache } from '../models/tts/index.js';
import { APP_EVENTS } from './ari/event-filter.js';
import { ARI_RECONNECT, openAriEvents } from './ari/events-socket.js';
import { createAriHttp } from './ari/http.js';
import { createAriRest } from './ari/rest-client.js';
import { keepGreetingCurrent } from './greeting-prompt.js';
import { AriLink } from './ari/link.js';
import { TrunkWatch } from './trunk-watch.js';
import type { CallFlow } from './flows/index.js';
import type { VoicemailLimits } from './flows/types.js';
import { localDisk, type RecordingDisk } from './recordings/disk.js';
import { createRecordingRetries, type RecordingRetryOptions } from './recordings/recording-retries.js';
import { StasisApp, type StasisAppDeps } from './stasis-app.js';
import { createAdmissionGate } from './admission/admission-gate.js';
import { refusalReason, type NodeLoad } from './admission/admission-rule.js';
import type { LiveLines } from '../core/ports/live-listen.js';
import { AgentCalls } from './live-control/agent-calls.js';
import { LiveControl } from './live-control/live-control.js';
import type { CallBackDialler } from '../core/ports/call-back-dialler.js';
import { callBackDialler, type AgentCallBacks } from './flows/call-back/dialler.js';
import { callBackRefusal } from './flows/call-back/slot-reserve.js';

export interface PbxOptions {
  /** Defaults to the prompt cache over the configured TTS engine. */
  prompts?: PromptCache;
  limits?: Partial<VoicemailLimits>;
  /** Between attempts to (re)open ARI's events socket (default ARI_RECONNECT: 0.5 s doubling to 10 s). */
  backoff?: BackoffPolicy;
  requestTimeoutMs?: number;
  handling?: StasisAppDeps['handling'];
  transferTiming?: StasisAppDeps['transferTiming'];
  /** Recordings left on Asterisk by a failed store (disk full): how they are retried. */
  recordingRetry?: RecordingRetryOptions;
  /** Where stored recordings are written (default the local file system; a test fills it up). */
  recordingDisk?: RecordingDisk;
  /** The agent-mode flow (installAgentFlow); without it agent-mode callers get voicemail. */
  agentFlow?: CallFlow;
  /** The agent calls an owner may take over (installAgentFlow's `takeOvers`, issue 54). */
  liveAgents?: AgentCalls;
  /** Calls the agent places (installAgentFlow's `callBacks`, issue 56); without it the PBX places no call-backs. */
  agentCallBacks?: AgentCallBacks;
  /** How long a call-back rings before it counts as not answered (default 30 s; a test shortens it). */
  callBackRingSeconds?: number;
}

export interface Pbx {
  app: StasisApp;
  link: AriLink;
  /** The link's state and calls in progress, for /healthz (the root registers it as 'pbx'). */
  health(): HealthReport;
  /** An owner saved their settings: re-makes their greeting now (the root subscribes it to hooks.settingsChanged). */
  settingsChanged: ServiceHooks['settingsChanged'][number];
  /** Rings an owner's transfer number as a test, when OUTBOUND_ENDPOINT lets the PBX call out: the core's route uses it. */
  testTransfer?: TestTransfer;
  /** "Check my forwarding", when OUTBOUND_ENDPOINT lets the PBX call out: the core's route uses it. */
  forwardingCheck?: ForwardingCheckStart;
  /** A team member's landline confirmed by a call reading its code, when OUTBOUND_ENDPOINT lets the PBX call out: the Team route uses it. */
  codeCall?: CodeCall;
  /** End call on the Live page (issue 54): the root attaches it to the core's live registry. */
  live: LiveCallControl;
  /** Places the agent's call-backs (issue 56), when OUTBOUND_ENDPOINT lets the PBX call out and agent mode is installed: the core's sweep uses it. */
  callBackDialler?: CallBackDialler;
  /** Listen in and take over (issue 54), when the core handed its live lines: the core's routes use it. */
  liveControl?: LiveControl;
  /** Stops taking calls, lets calls in progress finish for up to `drainMs`, then disconnects. */
  stop(drainMs?: number): Promise<void>;
}

/** 3 minutes of message and a 5-second silence stop: long enough for a UK caller's details. */
const DEFAULT_LIMITS: VoicemailLimits = { maxDurationSeconds: 180, maxSilenceSeconds: 5 };

/** The core's objects the composition root builds and hands the PBX, each behind its port (core/ports/). */
export interface PbxCore {
  /**
   * The PBX's one way to the core's tables, shared by the app, the finisher, the recording
   * retries and (through each call's FlowContext) the flows.
   */
  callPath: CallPath;
  /** The console's "Call my line" lines (core/call-my-line/registry.ts over this Asterisk's endpoints). */
  callMyLine: CallMyLineLines;
  /** The console's listen and take-over lines (core/live-control/line-registry.ts), issue 54. */
  liveLines?: LiveLines;
}

/**
 * Connects to Asterisk as the configured Stasis app and answers calls. Needs ARI_URL. Writes
 * nothing into the core's objects: its health and its settings listener are returned for the
 * composition root (root/compose.ts) to register.
 */
export function startPbx(host: PbxHost, { callPath, callMyLine, liveLines }: PbxCore, opts: PbxOptions = {}): Pbx {
  const { config, log } = host;
  const ariUrl = config.ari.url;
  if (!ariUrl) throw new Error('ARI_URL is not set: the PBX cannot start');
  const store = createPromptCache({ dataDir: config.dataDir, tts: createTextToSpeech(config.tts), pool: host.agentEngines.pools.tts, folder: host.agentEngines.promptFolder });
  const prompts = opts.prompts ?? store;
  const pbxLog = log.child({ component: 'pbx' });

  let link: AriLink | undefined = undefined;
  // Sessions and retries always reach ARI through the link's current connection.
  const rest = new Proxy({} as AriLink['rest'], { get: (_t, prop) => link!.rest[prop as keyof AriLink['rest']] });
  const recordingsDir = path.join(config.dataDir, 'recordings');
  const disk = opts.recordingDisk ?? localDisk;
  const recordingRetries = createRecordingRetries(
    { callPath, rest, log: pbxLog, recordingsDir, disk, callFinished: host.hooks.callFinished },
    opts.recordingRetry,
  );
  const load = startNodeLoad(() => callPath.pendingJobs());
  const admission = createAdmissionGate({ limits: config.admission, load, rest, log: pbxLog });
  // What the admission rule reads now; `app` is declared below and read only when asked.
  const nodeLoad = (): NodeLoad => ({ activeCalls: app.activeCalls, loopLagMs: load.loopLagMs(), jobsWaiting: load.jobsWaiting() });
  const ariHttp = createAriHttp({ url: ariUrl, username: config.ari.username, password: config.ari.password, requestTimeoutMs: opts.requestTimeoutMs });
  // Issue 54: a listener's or an owner's leg counts as a call against the rule that refuses new callers.
  const liveControl: LiveControl | undefined = liveLines
    ? new LiveControl({
        app: config.ari.app,
        rest,
        http: ariHttp,
        log: pbxLog,
        lines: liveLines,
        agents: opts.liveAgents ?? new AgentCalls(),
        full: (legs): string | undefined => refusalReason({ ...nodeLoad(), activeCalls: app.activeCalls + legs }, config.admission),
      })
    : undefined;
  const app: StasisApp = new StasisApp({
    app: config.ari.app,
    rest,
    callPath,
    prompts,
    log: pbxLog,
    recordingsDir,
    dataDir: config.dataDir,
    disk,
    now: host.now,
    callFinished: host.hooks.callFinished,
    recordingRetries,
    limits: { ...DEFAULT_LIMITS, ...opts.limits },
    handling: opts.handling,
    outboundEndpoint: config.outbound.endpoint,
    outboundPresents: config.outbound.presents,
    transferTiming: opts.transferTiming,
    agentFlow: opts.agentFlow,
    callMyLine,
    admission,
    live: host.live,
    liveControl,
  });
  const trunk = new TrunkWatch({
    http: ariHttp,
    metricsUrl: `${ariUrl.replace(/\/+$/, '').replace(/\/ari$/, '')}/metrics`,
    username: config.ari.username,
    password: config.ari.password,
    connected: () => link?.state === 'connected',
    publish: (report) => host.health.set('trunk', () => report),
    log: pbxLog,
  });
  link = new AriLink({
    openEvents: (handlers) =>
      openAriEvents({ url: ariUrl, username: config.ari.username, password: config.ari.password, apps: [config.ari.app], backoff: opts.backoff ?? ARI_RECONNECT }, handlers),
    rest: createAriRest(ariHttp),
    onEvent: (e) => app.onEvent(e),
    onReady: () => {
      // Only the events the app acts on (issue 47: the rest cost CPU on both sides per call).
      // Asked on every (re)connection, as a new registration may start without it; a refusal
      // leaves every event coming, which costs CPU but loses nothing.
      void rest.filterEvents(config.ari.app, APP_EVENTS).catch((err: unknown) => pbxLog.warn({ err }, 'Asterisk did not take the app’s event filter: every ARI event still comes (more CPU per call, nothing lost)'));
      // Retries need Asterisk: they start with the first connection.
      recordingRetries.start();
      void app.reconcile();
      // Call my line endpoints an earlier run of the core left on this Asterisk: nobody would remove them.
      void callMyLine.sweep().catch((err: unknown) => pbxLog.warn({ err }, 'could not sweep Call my line endpoints left on Asterisk'));
      void liveLines?.sweep().catch((err: unknown) => pbxLog.warn({ err }, 'could not sweep live-call lines left on Asterisk'));
      void trunk.poll();
    },
    log: pbxLog,
  });
  link.start();
  trunk.start();

  // Synthesise a changed greeting when it is saved, so the next caller does not wait for it.
  const settingsChanged = keepGreetingCurrent({ prompts, store, owner: (id) => callPath.owner(id), log: pbxLog });

  const health = (): HealthReport => {
    const state = link!.state;
    const detail = `${state}${link!.detail ? ` (${link!.detail})` : ''}; calls in progress: ${app.activeCalls}`;
    return { ok: state === 'connected', detail };
  };

  return {
    app,
    link,
    health,
    settingsChanged,
    live: { end: (callId) => app.endLiveCall(callId) },
    ...(liveControl ? { liveControl } : {}),
    ...(config.outbound.endpoint
      ? {
          testTransfer: (userId: number) => testTransfer(callPath, app, link!, userId),
          forwardingCheck: (userId: number, line: string) => forwardingCheck(callPath, app, link!, { userId, line, waitSeconds: config.forwardingCheck.waitSeconds }),
          codeCall: codeCallThrough({ owner: (id) => callPath.owner(id), ownerDid: (id) => callPath.ownerDid(id), connected: () => link!.state === 'connected', place: (plan) => app.readCodeTo(plan) }),
        }
      : {}),
    // Issue 56: the agent's call-backs, through the same trunk.
    ...(config.outbound.endpoint && opts.agentCallBacks
      ? { callBackDialler: callBackDialler({ connected: () => link!.state === 'connected', busy: () => callBackRefusal(nodeLoad(), config.admission), agent: opts.agentCallBacks, place: (plan, agent) => app.placeCallBack(plan, agent), log: pbxLog, ringSeconds: opts.callBackRingSeconds }) }
      : {}),
    async stop(drainMs = 30_000) {
      await app.drain(drainMs);
      await liveControl?.stop();
      trunk.stop();
      link!.stop();
      ariHttp.close();
      await recordingRetries.stop();
      load.stop();
      admission.stop();
    },
  };
}

/** Pbx.testTransfer: the owner's transfer number, rung from their own appliance number. */
async function testTransfer(callPath: CallPath, app: StasisApp, link: AriLink, userId: number): Promise<TestTransferResult> {
  const { transferNumber, ringSeconds } = await callPath.transferTarget(userId);
  if (!transferNumber) return { kind: 'no-transfer-number' };
  const owner = await callPath.owner(userId);
  const did = await callPath.ownerDid(userId);
  if (!owner || !did) return { kind: 'no-phone-number' };
  if (link.state !== 'connected') return { kind: 'pbx-down' };
  const outcome = await app.testOwnerPhone({ userId, to: transferNumber, ringSeconds, businessName: owner.businessName, voice: owner.voice, callerId: did });
  return { kind: 'rang', outcome, number: transferNumber, ringSeconds };
}

/** Pbx.forwardingCheck: the owner's business line, rung from their own appliance number. */
async function forwardingCheck(callPath: CallPath, app: StasisApp, link: AriLink, c: { userId: number; line: string; waitSeconds: number }): Promise<ForwardingCheckStartResult> {
  const did = await callPath.ownerDid(c.userId);
  if (!did) return { kind: 'no-phone-number' };
  if (link.state !== 'connected') return { kind: 'pbx-down' };
  return app.startForwardingCheck({ ...c, did });
}
