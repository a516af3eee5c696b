import path from 'node:path';
import type { HealthReport, PbxHost } from '../../../core/ports/pbx-host.js';
import type { MediaFormat } from '../../media/codecs.js';
import type { CallFlow, FlowContext } from '../types.js';
import { createAgentFlow, type AgentFlowDeps } from './agent-flow.js';
import { withAdmission, type ConversationSlot } from './admission.js';
import { createAriHttp } from '../../ari/http.js';
import { createAriMediaRest } from './media-rest.js';
import { openMediaApp, type MediaApp } from './media-app.js';
import { createSlowBoxGuard, type SlowBoxGuard } from '../../admission/slow-box-guard.js';
import { AgentCalls } from '../../live-control/agent-calls.js';
import type { AgentCallBacks } from '../call-back/dialler.js';
import { admitLeavingSpare } from '../call-back/slot-reserve.js';
import { runAgentCall } from './agent-flow.js';

export interface InstallOptions {
  /**
   * ulaw (the default) is the format that works both ways on Asterisk 20.17: with slin16
   * Asterisk sends on dynamic payload type 118 but drops what it receives on 118, so the
   * caller would never hear the agent (test/pbx-real proves ulaw both ways).
   */
  format?: MediaFormat;
  overrides?: Partial<AgentFlowDeps>;
  /** Admission control (default: the engine pools' counters, core/engines/engine-pools.ts). */
  admit?: () => ConversationSlot | null;
}

export interface AgentFlowInstall {
  /** The flow to hand to startPbx (`agentFlow`). */
  flow: CallFlow;
  mediaApp: MediaApp;
  /** Whether the media app is registered, for /healthz (the root registers it as 'agent-media'). */
  health(): HealthReport;
  /** The node's slow-box guard (issue 60): fed every turn's end of speech → first audio. */
  slowBox: SlowBoxGuard;
  /** The agent calls an owner may take over (issue 54): hand it to startPbx (`liveAgents`). */
  takeOvers: AgentCalls;
  /** Calls the agent places (issue 56's call-backs): hand it to startPbx (`agentCallBacks`). */
  callBacks: AgentCallBacks;
  stop(): void;
}

/**
 * Wires the agent flow to the core's engines (from the root's PbxHost) and ARI. Call once, before startPbx, and give
 * it the flow; the database it reaches through each call's FlowContext (the PBX's CallPath).
 */
export function installAgentFlow(host: PbxHost, opts: InstallOptions = {}): AgentFlowInstall {
  const { config, log, agentEngines: engines } = host;
  if (!config.ari.url) throw new Error('ARI_URL is not set: the agent flow needs Asterisk');
  const ariBase = config.ari.url.replace(/\/ari\/?$/, '');
  const mediaApp = openMediaApp({ url: ariBase, username: config.ari.username, password: config.ari.password, app: config.ari.app, log });
  // Its own small pool: media set-up is a few requests per agent call, never a burst.
  const ariHttp = createAriHttp({ url: ariBase, username: config.ari.username, password: config.ari.password, maxSockets: 8 });
  const deps: AgentFlowDeps = {
    engines,
    media: createAriMediaRest(ariHttp, mediaApp),
    rtp: { bindHost: config.agentRtp.bind, advertiseHost: config.agentRtp.host, format: opts.format ?? 'ulaw' },
    workDir: path.join(config.dataDir, 'agent-turns'),
    dataDir: config.dataDir,
    // The owner's diary: the walk opens only where the owner has bookable services.
    bookingDesk: host.booking.desk,
    live: host.live,
    takeOvers: new AgentCalls(),
    ...opts.overrides,
    timing: { stall: config.agentStall, ...opts.overrides?.timing },
  };
  // Its closings, openings and the owners it turns away go to the core: the admin API, and who is told (once per episode).
  const slowBox = createSlowBoxGuard({ ...config.agentSlow, log, reports: host.agentGuard });
  const report = deps.onTurnMetrics;
  deps.onTurnMetrics = (m) => {
    slowBox.record(m.totalMs);
    report?.(m);
  };
  // The model first: a caller refused for it is not counted against the slow guard's trials.
  const agentOff = (ctx: FlowContext) => (!engines.model.ready() ? 'model' : slowBox.admitNew(ctx.owner.userId) ? undefined : 'slow');
  const admit = opts.admit ?? (() => engines.pools.admitConversation());
  const flow = withAdmission(createAgentFlow(deps), admit, agentOff);
  // A call-back never takes the last slot an inbound caller may need, nor runs while agent mode is off
  // (the model not ready, or the slow-box guard closed: no trial call is spent on a call-back).
  const callBacks: AgentCallBacks = { admit: () => (engines.model.ready() && !slowBox.closed ? admitLeavingSpare(admit) : null), run: (ctx, opening) => runAgentCall(deps, ctx, opening) };
  return {
    flow,
    mediaApp,
    slowBox,
    takeOvers: deps.takeOvers!,
    callBacks,
    health: () => ({ ok: mediaApp.connected, detail: mediaApp.connected ? `${mediaApp.name} registered` : `${mediaApp.name} not registered on Asterisk` }),
    stop() {
      mediaApp.close();
      ariHttp.close();
    },
  };
}
