import dns from 'node:dns/promises';
import net from 'node:net';
import type { MediaFormat } from '../../media/codecs.js';
import { PacedPlayer } from '../../media/paced-player.js';
import { RtpEndpoint } from '../../media/rtp-endpoint.js';
import { createVad } from '../../media/vad.js';
import { answer, hangUp } from '../steps.js';
import type { CallFlow, FlowContext, FlowOutcome } from '../types.js';
import { putThrough } from '../transfer/put-through.js';
import { voicemailFlow } from '../voicemail/voicemail-flow.js';
import { AgentConversation, type AgentEnginesPort, type BargeInMetrics, type ConversationTiming, type TurnMetrics } from './conversation.js';
import type { AriMediaRest } from './media-rest.js';
import { formatTranscript } from './transcript.js';

export interface AgentFlowDeps {
  engines: AgentEnginesPort;
  media: AriMediaRest;
  rtp: {
    /** Local address the RTP socket binds to. */
    bindHost: string;
    /** Address Asterisk reaches it on (external_host), when it differs (containers, NAT). */
    advertiseHost?: string;
    format: MediaFormat;
  };
  /** Caller turns are written here briefly for speech-to-text. */
  workDir: string;
  timing?: Partial<ConversationTiming>;
  onTurnMetrics?(m: TurnMetrics & { callId: number }): void;
  onBargeIn?(m: BargeInMetrics & { callId: number }): void;
}

/** What an agent call adds to the flow outcome: the dialogue (status comes from FlowOutcome). */
export interface AgentFlowOutcome extends FlowOutcome {
  transcript?: string;
}

/** The agent's bridge recording name on Asterisk: the same as a voicemail's, one per call row. */
export const agentRecordingName = (callId: number) => `call-${callId}`;

/** Asterisk is given an IP address for external_host: a name is resolved here, where it is known. */
async function asAddress(host: string): Promise<string> {
  if (net.isIP(host)) return host;
  return (await dns.lookup(host, { family: 4 })).address;
}

/** After the goodbye's last frame leaves, Asterisk still has it in its jitter buffer. */
const GOODBYE_TAIL_MS = 300;

/**
 * The longest the greeting waits for the bridge's media to flow. Normally ~0.6 s; a loaded box
 * can take over 2 s, and a greeting started sooner loses its first words (the disclosure's
 * "Hello, you've reached…"). A phone that sends no audio at all until spoken to is the case
 * this bound is for.
 */
const MEDIA_READY_MAX_MS = 4000;

/** Resolves true on the bridge's first frame, false when `maxMs` passed without one. */
function firstFrame(endpoint: RtpEndpoint, maxMs: number): Promise<boolean> {
  if (endpoint.packetsIn > 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ready: boolean) => (clearTimeout(timer), off(), resolve(ready));
    const timer = setTimeout(() => done(false), maxMs);
    const off = endpoint.onFrame(() => done(true));
  });
}

/**
 * AI agent mode: answer, bridge the caller with an externalMedia (RTP, G.711 µ-law) channel
 * to our own RTP endpoint, record the bridge for the whole call, then hold the spoken
 * conversation (pbx/flows/agent/conversation.ts). If the media path cannot be set up the
 * caller gets voicemail instead: never dead air.
 */
export function createAgentFlow(deps: AgentFlowDeps): CallFlow {
  return async (ctx: FlowContext) => {
    const outcome = ctx.outcome as AgentFlowOutcome;
    const { session, log, callId, callPath } = ctx;
    const bridgeId = `agent-${callId}`;

    await answer(ctx);
    outcome.answered = true;

    const cleanup: Array<() => Promise<void> | void> = [];
    const runCleanup = async () => {
      for (const fn of cleanup.splice(0).reverse()) await Promise.resolve(fn()).catch((err) => log.warn({ err, callId }, 'agent: cleanup step failed'));
    };

    let endpoint: RtpEndpoint;
    let player: PacedPlayer;
    try {
      endpoint = await RtpEndpoint.open({ format: deps.rtp.format, host: deps.rtp.bindHost });
      cleanup.push(() => endpoint.close());
      player = new PacedPlayer({ frameSamples: endpoint.info.frameSamples, send: (f) => endpoint.sendFrame(f) });
      cleanup.push(() => player.close());
      const port = endpoint.address.split(':').pop();
      const ext = await deps.media.externalMedia({
        externalHost: `${await asAddress(deps.rtp.advertiseHost ?? deps.rtp.bindHost)}:${port}`,
        format: deps.rtp.format,
        channelId: `agent-media-${session.channelId}`,
      });
      cleanup.push(() => deps.media.hangupChannel(ext.id));
      if (ext.localAddress) endpoint.setRemote(ext.localAddress.host, ext.localAddress.port);
      await deps.media.createBridge(bridgeId);
      cleanup.push(() => deps.media.destroyBridge(bridgeId));
      await deps.media.addToBridge(bridgeId, [session.channelId, ext.id]);
      await deps.media.recordBridge(bridgeId, agentRecordingName(callId));
      outcome.recordingName = agentRecordingName(callId);
      outcome.message = 'yes'; // the whole conversation is the call's record
    } catch (err) {
      await runCleanup();
      if (session.hangupRequested) throw err;
      log.error({ err, callId }, 'agent: media path could not be set up; taking a voicemail instead');
      outcome.recordingName = undefined;
      outcome.message = undefined;
      return voicemailFlow(ctx);
    }

    // Asterisk drops what we send until its mixing bridge carries media (about 0.6 s on a
    // real Asterisk 20.17: callers missed the greeting's "Hello"). The bridge's first frame to
    // us says it is ready; a bound keeps a silent bridge from holding the greeting back.
    if (!(await firstFrame(endpoint, MEDIA_READY_MAX_MS))) log.warn({ callId, waitedMs: MEDIA_READY_MAX_MS }, 'agent: no audio from the bridge yet; greeting anyway');

    const vad = await createVad({ sampleRate: endpoint.info.sampleRate, frameSamples: endpoint.info.frameSamples }, log);
    cleanup.push(() => vad.close());

    // The call's writes wait out a database locked by another process off the event loop
    // (CallPath), so the conversation goes on meanwhile; the flow returns only once they
    // landed, so the finisher announces the call after them (the summary reads them).
    const writes = new Set<Promise<void>>();
    const write = (what: string, w: Promise<void>) => {
      const settled = w.catch((err: unknown) => log.error({ err, callId }, `agent: could not ${what}`)).finally(() => writes.delete(settled));
      writes.add(settled);
    };
    const written = async () => {
      while (writes.size) await Promise.all([...writes]);
    };

    const hangup = new AbortController();
    void session.whenGone(24 * 3600_000).then((gone) => gone && hangup.abort());
    const conversation = new AgentConversation(
      {
        media: { sampleRate: endpoint.info.sampleRate, onFrame: (fn) => endpoint.onFrame(fn), player },
        engines: deps.engines,
        vad,
        workDir: deps.workDir,
        log,
        timing: deps.timing,
        onUnanswered: (question, aiResponse) =>
          write('record the unanswered question', callPath.recordUnansweredQuestion({ userId: ctx.owner.userId, callId, question, callerNumber: session.callerNumber, aiResponse })),
        onTurnMetrics: (m) => deps.onTurnMetrics?.({ ...m, callId }),
        onUrgent: (reason) => write('flag the call urgent', callPath.flagUrgent(callId, reason)),
        // The owner joins the agent's bridge, so its recording carries on across the transfer.
        putThrough:
          ctx.transfer && ctx.ownerPhone
            ? async (callerWords) => (await putThrough(ctx, ctx.transfer!, { ...ctx.ownerPhone!, callerWords, bridgeId })).outcome === 'connected'
            : undefined,
        onBargeIn: (m) => deps.onBargeIn?.({ ...m, callId }),
      },
      { businessName: ctx.owner.businessName, knowledgeBase: ctx.owner.knowledgeBase, voice: ctx.owner.voice, callerNumber: session.callerNumber, industry: ctx.owner.industry },
    );

    try {
      const result = await conversation.run(hangup.signal);
      const transcript = formatTranscript(result.transcript);
      outcome.status = 'answered';
      outcome.transcript = transcript;
      // Stored before the call is finished, so the post-call job summarises the dialogue instead
      // of transcribing the mix; the hang-up below does not wait for it.
      if (transcript) write('store the transcript', callPath.saveAgentTranscript(callId, transcript));
      if (result.speechFailed && !session.gone) {
        // The agent cannot speak: take a voicemail with Asterisk's built-in prompts instead.
        hangup.abort();
        await runCleanup();
        outcome.recordingName = undefined;
        outcome.message = undefined;
        outcome.status = undefined; // from here it is a voicemail call, judged by its message
        return voicemailFlow(ctx);
      }
      // A put-through call is over (one side hung up): end the other.
      if (result.endedBy === 'transfer' && !session.gone) await hangUp(ctx);
      if (result.endedBy === 'agent' && !session.gone) {
        await new Promise((r) => setTimeout(r, GOODBYE_TAIL_MS));
        await hangUp(ctx);
      }
    } finally {
      hangup.abort();
      await runCleanup();
      await written();
    }
  };
}
