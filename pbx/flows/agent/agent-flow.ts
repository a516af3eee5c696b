import type { BookingDeskFactory } from '../../../dialogue/agent/booking-desk.js';
import type { CallBackDeskFactory } from '../../../dialogue/agent/call-back-desk.js';
import type { LiveCallFeed } from '../../../core/ports/live-calls.js';
import { ENGLISH_NAMES, isLanguageCode, parseAllowList, type LanguageCode } from '../../../dialogue/language/languages.js';
import { greetingRecordingFile } from '../../../models/audio/greeting-recording.js';
import { parseGreetingLanguages } from '../../../dialogue/language/greeting-languages.js';
import { chosenVoices } from '../../../dialogue/language/language-voices.js';
import { translateToEnglish } from '../../../dialogue/language/translate.js';
import { createVad } from '../../media/vad.js';
import { openBookingWalk } from './booking.js';
import { loadCallRouting } from './call-routing.js';
import { openCallBackDesk } from './call-backs.js';
import { answer, hangUp } from '../steps.js';
import type { CallFlow, FlowContext, FlowOutcome } from '../types.js';
import { putThrough } from '../transfer/put-through.js';
import { voicemailFlow } from '../voicemail/voicemail-flow.js';
import { trackWrites, type CallWrites } from './call-writes.js';
import { Cleanup } from './cleanup.js';
import { AgentConversation } from './conversation.js';
import type { AgentEnginesPort, ConversationDeps, ConversationResult } from './conversation-ports.js';
import type { ConversationTiming } from './conversation-timing.js';
import type { BargeInMetrics, TurnMetrics } from './turn-metrics.js';
import { agentMediaChannelId, agentRecordingName, firstFrame, MEDIA_READY_MAX_MS, openMediaPath, type MediaPath, type RtpSettings } from './media-path.js';
import type { AriMediaRest } from './media-rest.js';
import { formatTranscript, type TranscriptLine } from './transcript.js';
import type { AgentCalls } from '../../live-control/agent-calls.js';
import { offerTakeOver } from '../../live-control/offer-take-over.js';

export interface AgentFlowDeps {
  engines: AgentEnginesPort;
  media: AriMediaRest;
  rtp: RtpSettings;
  /** Caller turns are written here briefly for speech-to-text. */
  workDir: string;
  /** $DATA_DIR: where owners' recorded greeting lines are (models/audio/greeting-recording.ts). */
  dataDir?: string;
  timing?: Partial<ConversationTiming>;
  onTurnMetrics?(m: TurnMetrics & { callId: number }): void;
  onBargeIn?(m: BargeInMetrics & { callId: number }): void;
  /** The Live page's registry (core/ports/live-calls.ts): each committed line of the dialogue as it is said. */
  live?: LiveCallFeed;
  /** The owner's diary (core/booking, services.booking.desk): callers can book where the owner has bookable services. */
  bookingDesk?: BookingDeskFactory;
  /** Call-backs the agent agrees in the call (issue 56, core/call-backs-wish): set by the composition root. */
  callBackDesk?: CallBackDeskFactory;
  /** The node's agent calls an owner may take over (issue 54, pbx/live-control). */
  takeOvers?: AgentCalls;
}

/** The owner's recorded greeting lines as files (language → path); none without a data dir. */
function recordingFiles(ctx: FlowContext, dataDir: string | undefined): Partial<Record<LanguageCode, string>> {
  const out: Partial<Record<LanguageCode, string>> = {};
  if (!dataDir) return out;
  for (const [language, name] of Object.entries(ctx.owner.greetingRecordings ?? {})) if (isLanguageCode(language)) out[language] = greetingRecordingFile(dataDir, ctx.owner.userId, name);
  return out;
}

/** What an agent call adds to the flow outcome: the dialogue (status comes from FlowOutcome). */
interface AgentFlowOutcome extends FlowOutcome {
  transcript?: string;
}

/** A translation is one short model call; past this the question is kept untranslated rather than held. */
const QUESTION_TRANSLATION_MS = 60_000;

/** After the goodbye's last frame leaves, Asterisk still has it in its jitter buffer. */
const GOODBYE_TAIL_MS = 300;

/**
 * AI agent mode: answer, bridge the caller with an externalMedia (RTP, G.711 µ-law) channel
 * to our own RTP endpoint, record the bridge for the whole call (media-path.ts), then hold the
 * spoken conversation (conversation.ts). If the media path cannot be set up, or the agent
 * cannot speak, the caller gets voicemail instead: never dead air.
 */
export function createAgentFlow(deps: AgentFlowDeps): CallFlow {
  return (ctx: FlowContext) => runAgentCall(deps, ctx);
}

/**
 * A call the agent placed itself (issue 56's call-backs, pbx/flows/call-back/): before anything
 * is said `prelude` judges who picked up on the call's media (it may end the call itself, e.g.
 * a message left on a machine); then the conversation opens with `lines` instead of the
 * greeting, and the model is told `context` (what the caller wanted).
 */
export interface AgentOpening {
  prelude(media: MediaPath, speech: AgentEnginesPort['speech']): Promise<'converse' | 'ended'>;
  lines: string[];
  context: string | null;
  /** Sees the conversation once it runs, and each change of its dialogue (it may close the call: a wrong number). */
  watch?(conversation: AgentConversation): (lines: readonly TranscriptLine[]) => void;
}

/** One agent call on `ctx`: the inbound agent flow, or with `opening` a call the agent placed. */
export async function runAgentCall(deps: AgentFlowDeps, ctx: FlowContext, opening?: AgentOpening): Promise<void> {
  const outcome = ctx.outcome as AgentFlowOutcome;
  const { session, log, callId } = ctx;
  const bridgeId = `agent-${callId}`;

  await answer(ctx);
  outcome.answered = true;

  // Read while the media path is set up, so the team costs the caller no wait.
  const routing = loadCallRouting(ctx, new Date());
  const cleanup = new Cleanup(log, callId);
  let media: MediaPath;
  try {
    media = await openMediaPath(deps, ctx, bridgeId, cleanup);
    outcome.recordingName = agentRecordingName(callId);
    outcome.message = 'yes'; // the whole conversation is the call's record
  } catch (err) {
    await cleanup.run();
    // A call the agent placed has no voicemail to fall back to: it ends.
    if (session.hangupRequested || opening) throw err;
    log.error({ err, callId }, 'agent: media path could not be set up; taking a voicemail instead');
    return voicemailInstead(ctx);
  }

  // Asterisk drops what we send until its mixing bridge carries media (about 0.6 s on a
  // real Asterisk 20.17: callers missed the greeting's "Hello"). The bridge's first frame to
  // us says it is ready; a bound keeps a silent bridge from holding the greeting back.
  if (!(await firstFrame(media.endpoint, MEDIA_READY_MAX_MS))) log.warn({ callId, waitedMs: MEDIA_READY_MAX_MS }, 'agent: no audio from the bridge yet; greeting anyway');
  if (opening) {
    let next: 'converse' | 'ended';
    try {
      next = await opening.prelude(media, deps.engines.speech);
    } catch (err) {
      await cleanup.run();
      throw err;
    }
    if (next === 'ended') {
      outcome.status = 'answered';
      await cleanup.run();
      return;
    }
  }

  const [booking, team, callBacks] = await Promise.all([openBookingWalk(deps.bookingDesk, ctx), routing, openCallBackDesk(deps.callBackDesk, ctx)]);
  const vad = await createVad({ sampleRate: media.endpoint.info.sampleRate, frameSamples: media.endpoint.info.frameSamples }, log);
  cleanup.push(() => vad.close());

  const writes = trackWrites(log, callId);
  const hangup = new AbortController();
  void session.whenGone(24 * 3600_000).then((gone) => gone && hangup.abort());
  const watched: { onLines?: (lines: readonly TranscriptLine[]) => void } = {};
  const ports = conversationDeps(ctx, deps, media, writes, bridgeId, team?.ringSeconds);
  const onTranscript = ports.onTranscript;
  if (opening?.watch) ports.onTranscript = (lines) => (onTranscript?.(lines), watched.onLines?.(lines));
  const conversation = new AgentConversation(
    { ...ports, vad, ...(booking && { booking }), ...(team && { routing: team }), ...(callBacks && { callBacks }) },
    { ...(opening && { opening: { lines: opening.lines, context: opening.context } }), businessName: ctx.owner.businessName, knowledgeBase: ctx.owner.knowledgeBase, voice: ctx.owner.voice, callerNumber: session.callerNumber, industry: ctx.owner.industry, languages: parseAllowList(ctx.owner.languages), greetingLanguages: parseGreetingLanguages(ctx.owner.greetingLanguages), languageVoices: chosenVoices(ctx.owner.languageVoices, parseAllowList(ctx.owner.languages)), greetingRecordings: recordingFiles(ctx, deps.dataDir) },
  );

  if (opening?.watch) watched.onLines = opening.watch(conversation);
  cleanup.push(takeOverOffer(deps, ctx, conversation, bridgeId));

  try {
    const result = await conversation.run(hangup.signal);
    const transcript = formatTranscript(result.transcript);
    outcome.status = 'answered';
    outcome.transcript = transcript;
    // Stored before the call is finished, so the post-call job summarises the dialogue instead
    // of transcribing the mix; the hang-up below does not wait for it.
    if (transcript) writes.write('store the transcript', ctx.callPath.saveAgentTranscript(callId, transcript));
    if (result.speechFailed && !session.gone && !opening) {
      // The agent cannot speak: take a voicemail with Asterisk's built-in prompts instead.
      hangup.abort();
      await cleanup.run();
      return voicemailInstead(ctx);
    }
    await endAgentCall(ctx, result);
    if (result.endedBy === 'taken-over') await afterTakeOver(ctx);
  } finally {
    hangup.abort();
    await cleanup.run();
    await writes.written();
  }
}

/** The conversation's ports: the call's media, its engines, and what it reports to the core. */
function conversationDeps(ctx: FlowContext, deps: AgentFlowDeps, media: MediaPath, writes: CallWrites, bridgeId: string, teamRingSeconds = 20): Omit<ConversationDeps, 'vad'> {
  const { session, log, callId, callPath } = ctx;
  return {
    media: { sampleRate: media.endpoint.info.sampleRate, onFrame: (fn) => media.endpoint.onFrame(fn), player: media.player },
    engines: deps.engines,
    workDir: deps.workDir,
    log,
    timing: deps.timing,
    onUnanswered: (question, aiResponse, language) =>
      writes.write(
        'record the unanswered question',
        questionForOwner(deps.engines, question, language, log).then((q) => callPath.recordUnansweredQuestion({ userId: ctx.owner.userId, callId, ...q, callerNumber: session.callerNumber, aiResponse })),
      ),
    onLanguage: (language, voice) => writes.write("record the caller's language", callPath.setCallerLanguage(callId, language, voice ?? null)),
    onTurnMetrics: (m) => deps.onTurnMetrics?.({ ...m, callId }),
    onTranscript: deps.live ? (lines) => deps.live!.transcript(callId, lines.map((l) => ({ speaker: l.speaker === 'Caller' ? 'caller' : 'agent', text: l.text }))) : undefined,
    onUrgent: (reason) => writes.write('flag the call urgent', callPath.flagUrgent(callId, reason)),
    // The owner joins the agent's bridge, so its recording carries on across the transfer.
    putThrough:
      ctx.transfer && ctx.ownerPhone
        ? async (callerWords) => (await putThrough(ctx, ctx.transfer!, { ...ctx.ownerPhone!, callerWords, bridgeId })).outcome === 'connected'
        : undefined,
    // A team member is rung as the owner is, for the owner's put-through ring time.
    putThroughTo: ctx.transfer
      ? async (to, callerWords) =>
          (await putThrough(ctx, ctx.transfer!, { to, ringSeconds: ctx.ownerPhone?.ringSeconds ?? teamRingSeconds, callerWords, bridgeId })).outcome === 'connected'
      : undefined,
    onAttribute: (staffId, note) => writes.write('name the call’s person', callPath.attributeCall(callId, staffId, note)),
    onBargeIn: (m) => deps.onBargeIn?.({ ...m, callId }),
    onStalled: () => writes.write('tag the call as turned to voicemail (engines stalled)', callPath.markAgentStalled(callId)),
  };
}

/**
 * The owner reads English: a question asked in another language is logged as its English,
 * with the caller's words beside it. If the model cannot translate it, the caller's words
 * are logged as they are (named as untranslated), never lost.
 */
async function questionForOwner(engines: AgentEnginesPort, question: string, language: LanguageCode, log: FlowContext['log']) {
  if (language === 'en') return { question };
  try {
    const english = await translateToEnglish(engines.replies, question, language, AbortSignal.timeout(QUESTION_TRANSLATION_MS));
    return { question: english, originalQuestion: question, language };
  } catch (err) {
    log.warn({ err, language }, 'agent: could not translate an unanswered question; it is logged in the caller\'s words');
    return { question: `(${ENGLISH_NAMES[language]}, untranslated) ${question}`, originalQuestion: question, language };
  }
}

/** Hangs up what the conversation left open: the other side of an ended put-through, or the caller after the goodbye. */
async function endAgentCall(ctx: FlowContext, result: ConversationResult): Promise<void> {
  if (ctx.session.gone) return;
  // A put-through call is over (one side hung up): end the other.
  if (result.endedBy === 'transfer') await hangUp(ctx);
  if (result.endedBy === 'agent') {
    await new Promise((r) => setTimeout(r, GOODBYE_TAIL_MS));
    await hangUp(ctx);
  }
}

/** Issue 54: the call is offered for take-over while the agent holds it; the returned undo withdraws it. */
function takeOverOffer(deps: AgentFlowDeps, ctx: FlowContext, conversation: AgentConversation, bridgeId: string): () => Promise<void> {
  const withdraw = offerTakeOver(deps.takeOvers, ctx, { conversation, bridgeId, leaveMedia: () => deps.media.hangupChannel(agentMediaChannelId(ctx.session.channelId)) });
  return async () => withdraw();
}

/** Taken over: the caller and the owner talk in the agent's (recorded) bridge until either hangs up (pbx/live-control ends the other). */
async function afterTakeOver(ctx: FlowContext): Promise<void> {
  ctx.outcome.status = 'answered';
  await ctx.session.whenGone(24 * 3600_000);
}

/** The agent could not take the call after all: it becomes a voicemail call, judged by its message. */
function voicemailInstead(ctx: FlowContext): Promise<void> {
  ctx.outcome.recordingName = undefined;
  ctx.outcome.message = undefined;
  ctx.outcome.status = undefined;
  return voicemailFlow(ctx);
}
