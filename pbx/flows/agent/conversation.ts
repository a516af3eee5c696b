import { setMaxListeners } from 'node:events';
import fs from 'node:fs/promises';
import type { ReplyStreamer } from '../../../models/llm/language-model.js';
import { greetingLines } from '../../../dialogue/language/greeting-languages.js';
import { fixedLines } from '../../../dialogue/language/fixed-lines.js';
import { LanguageSession } from '../../../dialogue/language/language-session.js';
import type { HeardLanguage } from '../../../dialogue/language/detection.js';
import type { LanguageCode } from '../../../dialogue/language/languages.js';
import { buildAgentSystemPrompt } from '../../../dialogue/agent/agent-prompt.js';
import { askAgent, type ResponderEvent } from '../../../dialogue/agent/agent-responder.js';
import { answerTurn, bookingAnswer, type AgentAnswer } from '../../../dialogue/agent/agent-turn.js';
import type { BookingWalk } from '../../../dialogue/agent/booking-walk.js';
import { GAS_SAFETY_LINES, handlesGas, mentionsGasLeak } from '../../../dialogue/spoken/safety-line.js';
import type { SpeechToText } from '../../../models/stt/speech-to-text.js';
import { withChosenVoices, type PromptCache, type Voice } from '../../../models/tts/index.js';
import type { PacedPlayer, PlayResult } from '../../media/paced-player.js';
import { TurnDetector, type TurnConfig, type TurnEvent } from '../../media/turn-detector.js';
import type { VoiceActivityDetector } from '../../media/vad.js';
import type { Log } from '../../../contract/log.js';
import { DEFAULT_END_OF_TURN, endOfTurnSilenceMs, type EndOfTurnConfig } from './end-of-turn.js';
import {
  ConversationTimers,
  newSpeculationState,
  newTurnState,
  type BargeInState,
  type EndState,
  type SpeculationEntry,
  type TransferState,
} from './conversation-state.js';
import { Speculation } from './speculation.js';
import { recordTone, sentenceAudio, wavFileAudio, writeTurnWav } from './speech-audio.js';
import { DEFAULT_STALL_BOUNDS, stallPlan, StallWatch, type StallBounds, type StallStep } from './stall-rule.js';
import type { TranscriptLine } from './transcript.js';

// One spoken conversation: caller frames in, agent frames out. Knows nothing of ARI, so
// the same engine runs behind the simulator, a real Asterisk, or a benchmark.
//
// Control is kept apart from data (livekit/pipecat habit): barge-in, hang-up and engine
// failure are events that cancel the current turn's AbortController and clear the
// player's queue; the audio already queued is simply dropped.
//
// Turns overlap instead of queueing (speculation.ts): after a short pause the caller's
// words so far are transcribed and answered; the turn commits only when the end-of-turn
// silence has passed (shorter after a finished question, longer after "um" or a number),
// and only a committed turn is heard, logged or counted.

interface AgentMediaPort {
  sampleRate: number;
  onFrame(fn: (frame: Int16Array) => void): () => void;
  player: PacedPlayer;
}

export interface AgentEnginesPort {
  replies: ReplyStreamer;
  speech: PromptCache;
  stt: SpeechToText;
}

export interface ConversationTiming {
  /** Caller silence (while the agent waits) before "Are you still there?", then before goodbye. */
  silencePromptMs: number;
  /** The longest a call may run before the agent closes it politely. */
  maxCallMs: number;
  turn: Partial<TurnConfig>;
  /**
   * Speculative turn-taking: start on turn.speculateMs of silence, commit after the silence
   * endOfTurn picks from the words. False is the old path: wait turn.endSilenceMs, then
   * transcribe, ask and synthesise one after another (kept for the benchmark's comparison).
   */
  speculative: boolean;
  /** Commit points; `defaultMs` follows turn.endSilenceMs unless given. */
  endOfTurn: Partial<EndOfTurnConfig>;
  /** When a turn the engines have not answered hears the holding phrase, then the voicemail offer (AGENT_HOLD_AFTER_MS, AGENT_VOICEMAIL_AFTER_MS). */
  stall: StallBounds;
}

const DEFAULT_TIMING: ConversationTiming = {
  silencePromptMs: 8000,
  maxCallMs: 15 * 60_000,
  turn: { startMs: 80, endSilenceMs: 700, minTurnMs: 500, blipSilenceMs: 240, speculateMs: 200 },
  speculative: true,
  endOfTurn: {},
  stall: DEFAULT_STALL_BOUNDS,
};

/** Per-turn figures for the latency benchmark (all in ms). */
export interface TurnMetrics {
  turn: number;
  kind: string;
  /** Silence waited before the turn's work started (the speculation point, or the whole end-of-turn silence). */
  vadWaitMs: number;
  sttMs: number;
  /** From sending the conversation to the model to its first speakable sentence (or its whole reply). */
  llmFirstMs: number;
  ttsFirstMs: number;
  /** First audio ready while the end-of-turn silence had not yet passed (speculative turns). */
  holdMs: number;
  /** Caller's end of speech → first agent frame on the wire. */
  totalMs: number;
  /** What is left: the core's own work. */
  overheadMs: number;
  /** The silence that ended the turn. */
  commitSilenceMs: number;
  /** The end-of-turn silence the rules chose for it (commitSilenceMs can be longer: frames late on a loaded machine). */
  endSilenceMs: number;
  /** The turn adopted work started before it ended. */
  speculated: boolean;
  /** Model calls started speculatively for this turn, cancelled ones included. */
  speculativeLlmCalls: number;
}

export interface BargeInMetrics {
  /** Agent speech still queued when the caller's speech paused it (dropped if it is a real turn). */
  pausedWithQueuedMs: number;
}

export interface ConversationInput {
  businessName: string | null;
  knowledgeBase: string | null;
  voice: Voice;
  callerNumber: string;
  /** SPEC's industry: trades that handle gas get the gas safety line. */
  industry?: string | null;
  /** The languages the owner allows callers to be answered in (dialogue/language); default all the box speaks. */
  languages?: readonly string[] | null;
  /** The greeting's languages in the owner's order (English and Welsh); English alone when absent. */
  greetingLanguages?: readonly LanguageCode[];
  /** The owner's voice per language (users.language_voices): the greeting, lines and answers in it; the rest by `voice`. */
  languageVoices?: Readonly<Record<string, string>> | null;
  /** The owner's own recording of the greeting line per language (language → file): played in place of that line. */
  greetingRecordings?: Readonly<Partial<Record<LanguageCode, string>>>;
}

export interface ConversationResult {
  transcript: TranscriptLine[];
  /** Who closed the call: the agent (goodbye said; hang up now), the caller, or a put-through call that has ended. */
  endedBy: 'agent' | 'caller' | 'transfer';
  engineFailed: boolean;
  /** Speech synthesis failed: the flow falls back to voicemail with Asterisk's own prompts. */
  speechFailed: boolean;
}

export interface ConversationDeps {
  media: AgentMediaPort;
  engines: AgentEnginesPort;
  vad: VoiceActivityDetector;
  workDir: string;
  log: Log;
  timing?: Partial<ConversationTiming>;
  /** A question the knowledge base did not cover: store it for the owner at once (in the caller's language: the flow has it translated). */
  onUnanswered(question: string, aiResponse: string, language: LanguageCode): void;
  /** The agent now answers in another language, spoken by `voiceName` (the TTS engine's name for it): recorded on the call. */
  onLanguage?(language: LanguageCode, voiceName: string | undefined): void;
  onTurnMetrics?(m: TurnMetrics): void;
  onBargeIn?(m: BargeInMetrics): void;
  /**
   * Set when the owner can be rung: puts the caller through with what they said so far.
   * Resolves true once the two were connected (and that call is over), false when the
   * owner did not take it (the caller has been told so).
   */
  putThrough?(callerWords: string): Promise<boolean>;
  /** The caller said it is urgent, or mentioned a gas leak: the call is flagged for the owner. */
  onUrgent?(reason: string): void;
  /** The engines stalled on a turn and the caller was offered voicemail: the call is tagged. */
  onStalled?(): void;
  /**
   * Set when the owner has bookable services and a diary (issue 41): "book" replies walk the
   * caller through a booking. Without it the agent never books, exactly as before.
   */
  booking?: BookingWalk;
  now?: () => number;
}

/** When each stage of a turn finished (ms, this.now clock), for TurnMetrics. */
interface TurnStages {
  turn: number;
  endOfSpeech: number;
  workStart: number;
  commitAt: number;
  commitSilenceMs: number;
  endSilenceMs: number;
  sttDone?: number;
  llmStart?: number;
  firstText?: number;
  speculated: boolean;
  speculativeLlmCalls: number;
}

/** The first sentence reached the wire: its synthesis time, when it left, when its audio was ready. */
type FirstAudio = (ttsMs: number, at: number, readyAt: number, kind?: string) => void;

/** A sentence's audio synthesised before it was queued (by a speculation). */
interface ReadyAudio {
  audio: Promise<Int16Array>;
  startedAt: number;
  readyAt(): number | undefined;
}

/** Below this, a short sound while the agent listens is not worth transcribing (a click, a breath). */
const SHORT_ANSWER_MS = 200;

class TurnCancelled extends Error {
  override name = 'TurnCancelled';
}

/** The TTS engine could not voice a line: nothing can be said in this conversation. */
class SpeechUnavailable extends Error {
  override name = 'SpeechUnavailable';
}

export class AgentConversation {
  /** The system prompt for the booking step and language it was built for (booking-walk.ts): rebuilt only when the step changes. */
  private prompt: { step: string | null; language: LanguageCode; text: string } | undefined;
  /** The language the agent answers in, and what follows from it (dialogue/language). */
  private readonly lang: LanguageSession;
  /** The prompt cache in the owner's voice for each language. */
  private readonly speech: PromptCache;
  /** What speech-to-text said of each transcript's language, until its turn is decided. */
  private readonly heardLanguages = new Map<string, HeardLanguage>();
  private readonly timing: ConversationTiming;
  private readonly endOfTurn: EndOfTurnConfig;
  private readonly detector: TurnDetector;
  private readonly now: () => number;
  private readonly turns = newTurnState();
  private readonly speculation = newSpeculationState();
  private readonly bargeIn: BargeInState = { pausedAt: null };
  private readonly transfer: TransferState = { inProgress: false };
  private readonly timers = new ConversationTimers();
  private readonly end: EndState = { ended: false, engineFailed: false, speechFailed: false };
  private finish!: (r: ConversationResult) => void;
  private readonly done = new Promise<ConversationResult>((r) => (this.finish = r));
  private detach: (() => void) | undefined;
  /** Runs while a committed turn is owed its first audio. */
  private stallWatch: StallWatch | null = null;
  /** The holding phrase, synthesised at the start: a stalled TTS engine cannot make it when it is needed. */
  private holdingAudio: Int16Array | undefined;

  constructor(
    private readonly deps: ConversationDeps,
    private readonly input: ConversationInput,
  ) {
    this.timing = {
      ...DEFAULT_TIMING,
      ...deps.timing,
      turn: { ...DEFAULT_TIMING.turn, ...deps.timing?.turn },
      endOfTurn: { ...DEFAULT_TIMING.endOfTurn, ...deps.timing?.endOfTurn },
      stall: { ...DEFAULT_TIMING.stall, ...deps.timing?.stall },
    };
    this.detector = new TurnDetector({ ...this.timing.turn, speculateMs: this.timing.speculative ? this.timing.turn.speculateMs : 0 });
    this.endOfTurn = { ...DEFAULT_END_OF_TURN, defaultMs: this.timing.turn.endSilenceMs ?? DEFAULT_END_OF_TURN.defaultMs, ...this.timing.endOfTurn };
    // Each language in the voice the owner chose for it.
    this.speech = withChosenVoices(deps.engines.speech, input.languageVoices);
    this.lang = new LanguageSession(input.languages, (language) => buildAgentSystemPrompt({ businessName: input.businessName, knowledgeBase: input.knowledgeBase, language }));
    this.now = deps.now ?? (() => performance.now());
  }

  /** The model's instructions now: the same every turn, unless a booking step is in progress. */
  private system(): string {
    const walk = this.deps.booking;
    const step = walk?.promptStep() ?? null;
    const language = this.lang.current;
    if (!this.prompt || this.prompt.step !== step || this.prompt.language !== language) {
      const booking = walk ? { step } : undefined;
      this.prompt = { step, language, text: buildAgentSystemPrompt({ businessName: this.input.businessName, knowledgeBase: this.input.knowledgeBase, language, ...(booking && { booking }) }) };
    }
    return this.prompt.text;
  }

  /** Runs until the agent says goodbye or `hangup` fires (the caller left). */
  run(hangup: AbortSignal): Promise<ConversationResult> {
    if (hangup.aborted) return Promise.resolve(this.close('caller'));
    hangup.addEventListener('abort', () => this.close('caller'), { once: true });
    this.detach = this.deps.media.onFrame((f) => this.onFrame(f));
    this.timers.startMax(() => void this.closeWith([this.lang.lines.lines.silenceGoodbye]), this.timing.maxCallMs);
    void this.agentTurn('greeting', async (signal) => {
      // Each greeting line in its own language's voice, in the owner's order (issue 42).
      const s = this.streamingSpeaker(signal);
      for (const g of greetingLines(this.input.greetingLanguages ?? ['en'], this.lang.allowed, this.input.businessName, this.input.greetingRecordings)) {
        s.add(g.text, g.recording === undefined ? undefined : this.recordedLine(g.recording, g.language), g.language);
      }
      await s.finished();
    });
    this.prepareStallLines();
    return this.done;
  }

  /**
   * An owner's recorded greeting line as ready audio. A file gone since the call began (the
   * owner replaced it just now) gives the project's spoken line instead: never silence.
   */
  private recordedLine(file: string, language: LanguageCode): ReadyAudio {
    let readyAt: number | undefined;
    const audio = wavFileAudio(file, this.deps.media.sampleRate)
      .catch((err: unknown) => {
        this.deps.log.warn({ err, language }, "agent: the owner's recorded greeting could not be read; speaking the greeting line instead");
        return sentenceAudio(this.speech, fixedLines(language).greeting(this.input.businessName), this.input.voice, this.deps.media.sampleRate, language);
      })
      .finally(() => (readyAt = this.now()));
    return { audio, startedAt: this.now(), readyAt: () => readyAt };
  }

  /** After the greeting's, at background priority: once cached (on disk, per voice) this costs nothing. */
  private prepareStallLines(): void {
    const language = this.lang.current;
    const prepare = (text: string) =>
      this.speech.get(text, this.input.voice, 'background', language).then(() => sentenceAudio(this.speech, text, this.input.voice, this.deps.media.sampleRate, language));
    prepare(this.lang.lines.lines.holding).then(
      (pcm) => {
        if (this.lang.current === language) this.holdingAudio = pcm; // not a line in the language the caller has left
      },
      (err: unknown) => this.deps.log.warn({ err }, 'agent: could not prepare the holding phrase; a slow answer will be waited for in silence'),
    );
    prepare(this.lang.lines.lines.engineFailure).catch(() => undefined); // said through the cache when needed; its failure is reported then
  }

  // ------------------------------------------------------------------ caller audio

  private onFrame(frame: Int16Array): void {
    if (this.end.ended || this.transfer.inProgress) return;
    const events = this.detector.feed(frame, this.deps.vad.isSpeech(frame));
    for (const e of events) this.onTurnEvent(e);
  }

  private onTurnEvent(e: TurnEvent): void {
    const player = this.deps.media.player;
    switch (e.type) {
      case 'speech-start':
        this.timers.stopSilence();
        this.cancelSpeculation('new stretch of speech');
        // While a reply is on its way too: the caller may have more to say, so nothing of
        // it is heard until we know whether this is "mm" or a real turn.
        if ((player.busy || this.turns.running) && !player.isPaused) {
          // Possible barge-in: stop sending now, decide once we know it is not a cough.
          player.pause();
          this.bargeIn.pausedAt = this.now();
          this.deps.onBargeIn?.({ pausedWithQueuedMs: player.queuedMs });
        }
        return;
      case 'speech-confirmed':
        this.timers.silencePrompts = 0;
        if (this.bargeIn.pausedAt !== null || this.turns.running) {
          // A real interruption: drop queued speech and cancel the reply being made.
          const dropped = player.clear();
          this.turns.abort?.abort(new TurnCancelled('barge-in'));
          if (this.bargeIn.pausedAt !== null) this.deps.log.info({ droppedMs: dropped }, 'agent: caller barged in');
          this.bargeIn.pausedAt = null;
        }
        return;
      case 'blip':
        this.cancelSpeculation('short sound');
        if (this.bargeIn.pausedAt !== null) {
          // "mm", "ok", a cough over the agent: carry on speaking as if nothing happened.
          this.bargeIn.pausedAt = null;
          player.resume();
        } else if (!player.busy && !this.turns.running && e.speechMs >= SHORT_ANSWER_MS) {
          // The agent is listening: a one-word answer ("Yes.") is a turn of its own.
          void this.callerTurn(e.audio, e.silenceMs, this.now(), true);
        } else if (!player.busy && !this.turns.running) {
          this.startSilenceTimer();
        }
        return;
      case 'pause':
        this.cancelSpeculation('superseded');
        this.speculation.current = this.speculate(e.audio, this.now() - e.silenceMs);
        return;
      case 'resume':
        this.cancelSpeculation('caller carried on');
        return;
      case 'turn': {
        const entry = this.speculation.current;
        this.speculation.current = null;
        void this.callerTurn(e.audio, e.silenceMs, this.now(), false, entry ?? undefined, e.endSilenceMs);
        return;
      }
    }
  }

  // ------------------------------------------------------------------ speculation

  /** Starts the work for the turn so far; its words then set when the turn ends. */
  private speculate(audio: Int16Array, endOfSpeech: number): SpeculationEntry {
    const system = this.system();
    const entry = { mode: this.turns.mode, carry: this.turns.carryText, historyLength: this.turns.history.length, system } as SpeculationEntry;
    const history = [...this.turns.history];
    entry.spec = new Speculation(
      {
        now: this.now,
        transcribe: (signal) => this.transcribe(audio, signal),
        reply: (heard, signal) => {
          if (entry.mode !== 'normal' || !heard) return null;
          // Asked after the turn committed (a slow Whisper), it is no longer a speculation.
          if (this.speculation.current === entry) {
            this.speculation.callsSinceTurn++;
            this.speculation.callsTotal++;
          }
          const callerText = [entry.carry, heard].filter(Boolean).join(' ');
          return askAgent(this.deps.engines.replies, { system, history, callerText }, signal);
        },
        synthesize: (text) => sentenceAudio(this.speech, text, this.input.voice, this.deps.media.sampleRate, this.lang.current),
      },
      endOfSpeech,
    );
    entry.spec.transcript.then(
      (heard) => {
        if (entry.spec.cancelled || this.speculation.current !== entry || this.end.ended) return;
        // A message is never cut short: callers leaving one pause between sentences.
        const ms = endOfTurnSilenceMs(heard, this.endOfTurn, entry.mode === 'normal');
        for (const e of this.detector.setEndSilence(ms)) this.onTurnEvent(e);
      },
      () => undefined, // an STT failure is the committed turn's to report
    );
    return entry;
  }

  private cancelSpeculation(reason: string): void {
    const entry = this.speculation.current;
    if (!entry) return;
    this.speculation.current = null;
    entry.spec.cancel(reason);
    this.speculation.cancelled++;
  }

  // ------------------------------------------------------------------ turns

  /** Runs one agent action, cancelling any previous one; engine failures fall back to voicemail. */
  private async agentTurn(what: string, work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    this.turns.abort?.abort(new TurnCancelled('superseded'));
    const ac = new AbortController();
    // One turn's signal is shared by every sentence's synthesis and the model stream: more
    // than Node's default 10 listeners is expected, and each removes itself when done.
    setMaxListeners(64, ac.signal);
    this.turns.abort = ac;
    this.turns.running = true;
    try {
      await work(ac.signal);
    } catch (err) {
      if (this.end.ended || ac.signal.aborted) return;
      if (err instanceof SpeechUnavailable) {
        this.deps.log.error({ err, what }, 'agent: speech synthesis failed; handing the call to voicemail');
        this.end.speechFailed = true;
        this.close('agent');
        return;
      }
      this.deps.log.warn({ err, what }, 'agent: engine failure; offering voicemail');
      if (!this.end.engineFailed) await this.fallBackToVoicemail();
      else if (this.turns.mode === 'voicemail' && what !== 'closing') await this.closeWith([this.lang.lines.lines.voicemailThanks]);
      else this.close('agent'); // nothing more can be done: end the call politely rather than loop
      return;
    } finally {
      if (this.turns.abort === ac) {
        this.turns.abort = null;
        this.turns.running = false;
      }
    }
    if (!this.end.ended && this.turns.abort === null && !this.detector.speaking) this.startSilenceTimer();
  }

  /**
   * One committed caller turn, step by step: adopt the speculation (if it still holds),
   * transcribe, let the mode decide, or stream the model's reply into speech, then record
   * the turn in the history (and the owner's questions). Metrics follow the stages.
   */
  private async callerTurn(audio: Int16Array, silenceMs: number, detectedAt: number, short = false, entry?: SpeculationEntry, endSilenceMs = silenceMs): Promise<void> {
    const spec = this.adoptable(entry);
    const n = ++this.turns.count;
    const stages = this.startStages(n, spec, detectedAt, silenceMs, endSilenceMs);
    await this.agentTurn(`turn ${n}`, async (signal) => {
      const stopWatch = this.watchForStall(stages, signal);
      try {
        await this.turnSteps(audio, short, spec, stages, signal);
      } finally {
        stopWatch();
      }
    });
  }

  /** The turn's steps, while its silence is watched. */
  private async turnSteps(audio: Int16Array, short: boolean, spec: Speculation | undefined, stages: TurnStages, signal: AbortSignal): Promise<void> {
    spec?.adopt(signal);
    const heard = await this.hear(audio, spec, stages, signal);
    const text = [this.turns.carryText, heard].filter(Boolean).join(' ');
    this.turns.carryText = text; // kept if this turn is cancelled before the agent answers
    if (!heard) return this.notHeard(short, signal);
    const change = this.heardInLanguage(heard);
    // A reply the speculation began in the old language is not the one to give.
    if (change && spec) {
      spec.cancel('the caller changed language');
      spec = undefined;
    }
    this.turns.transcript.push({ speaker: 'Caller', text: heard });
    this.timers.silencePrompts = 0;
    if (!this.turns.safetyGiven && handlesGas(this.input.industry) && mentionsGasLeak(heard)) await this.safetyFirst(signal);
    if (change === 'asked' && this.turns.mode === 'normal') await this.languageAsked(text, stages, signal);
    else if (this.turns.mode === 'normal') await this.answer(text, spec, stages, signal);
    else await this.messageTurn(stages, signal);
  }

  // ------------------------------------------------------------------ stalled engines

  /** Until the turn's first audio starts (or the turn ends), the silence is watched (stall-rule.ts). */
  private watchForStall(stages: TurnStages, signal: AbortSignal): () => void {
    this.stallWatch?.stop();
    const plan = stallPlan(this.turns.mode, this.timing.stall, stages.commitAt - stages.endOfSpeech);
    const watch = new StallWatch(plan, stages.endOfSpeech, this.now, (step) => this.onStall(step, stages));
    this.stallWatch = watch;
    const stop = () => {
      watch.stop();
      if (this.stallWatch === watch) this.stallWatch = null;
    };
    signal.addEventListener('abort', stop, { once: true });
    return stop;
  }

  private onStall(step: StallStep, stages: TurnStages): void {
    if (this.end.ended || this.transfer.inProgress) return;
    const waitedMs = Math.round(this.now() - stages.endOfSpeech);
    if (step === 'hold') {
      // Not over the caller, and not without its audio (the TTS engine may be what is stuck).
      if (this.detector.speaking || !this.holdingAudio) return;
      this.deps.log.info({ turn: stages.turn, waitedMs }, 'agent: the answer is slow; holding phrase');
      void this.deps.media.player.play(this.holdingAudio);
      return;
    }
    this.stallWatch?.stop();
    this.stallWatch = null;
    if (step === 'close') {
      this.deps.log.warn({ turn: stages.turn, waitedMs }, 'agent: the message could not be transcribed in time; it is in the recording');
      void this.closeWith([this.lang.lines.lines.voicemailThanks]);
      return;
    }
    this.deps.log.warn({ turn: stages.turn, waitedMs }, 'agent: the engines stalled on a turn; offering voicemail');
    this.deps.onStalled?.();
    void this.fallBackToVoicemail();
  }

  /**
   * Step 1b, safety first: a gas smell or leak at a trade that handles gas hears the gas
   * emergency advice, a fixed text, before anything the model says. Once per call.
   */
  private async safetyFirst(signal: AbortSignal): Promise<void> {
    this.turns.safetyGiven = true;
    this.deps.onUrgent?.('The caller mentioned a gas smell or leak.');
    await this.speak([...GAS_SAFETY_LINES], signal);
  }

  /** The speculation this turn may take over, unless the conversation moved on since it started. */
  private adoptable(entry: SpeculationEntry | undefined): Speculation | undefined {
    if (!entry) return undefined;
    if (entry.mode === this.turns.mode && entry.carry === this.turns.carryText && entry.historyLength === this.turns.history.length && entry.system === this.system()) return entry.spec;
    // Cannot normally happen: start afresh rather than answer a different conversation.
    entry.spec.cancel('stale');
    this.speculation.cancelled++;
    return undefined;
  }

  private startStages(turn: number, spec: Speculation | undefined, detectedAt: number, silenceMs: number, endSilenceMs: number): TurnStages {
    const stages: TurnStages = {
      turn,
      endOfSpeech: spec?.endOfSpeech ?? detectedAt - silenceMs,
      workStart: spec?.startedAt ?? detectedAt,
      commitAt: detectedAt,
      commitSilenceMs: silenceMs,
      endSilenceMs,
      speculated: spec !== undefined,
      speculativeLlmCalls: this.speculation.callsSinceTurn,
    };
    this.speculation.callsSinceTurn = 0;
    return stages;
  }

  /** Step 1, transcribe: the speculation's words when it ran Whisper already. */
  private async hear(audio: Int16Array, spec: Speculation | undefined, stages: TurnStages, signal: AbortSignal): Promise<string> {
    const heard = spec ? await spec.transcript : await this.transcribe(audio, signal);
    stages.sttDone = spec?.sttDoneAt ?? this.now();
    return heard;
  }

  /** No words: a short noise is ignored; a real turn we could not make out is asked again. */
  private async notHeard(short: boolean, signal: AbortSignal): Promise<void> {
    if (!short && this.turns.mode === 'normal') await this.speak([this.lang.lines.lines.didNotCatch], signal);
  }

  /** Step 2, the mode: a caller leaving a message (or a voicemail) is not answered by the model. */
  private async messageTurn(stages: TurnStages, signal: AbortSignal): Promise<void> {
    this.turns.carryText = '';
    if (this.turns.mode === 'voicemail') return this.closeWith([this.lang.lines.lines.voicemailThanks]);
    this.turns.mode = 'normal';
    await this.speak([this.lang.lines.lines.messageTaken], signal, this.metricsFor(stages, 'message-taken'));
  }

  /**
   * Steps 3 and 4, stream the reply and speak it: answer sentences are synthesised as they
   * arrive (TTS of sentence n+1 runs while sentence n plays), then the fixed lines.
   */
  private async answer(text: string, spec: Speculation | undefined, stages: TurnStages, signal: AbortSignal): Promise<void> {
    const speaker = this.streamingSpeaker(signal, this.metricsFor(stages, 'answer'));
    const walk = this.deps.booking;
    let turn = await answerTurn(
      this.timedReplies(text, spec, stages, signal),
      this.input.businessName,
      (sentence) => speaker.add(sentence, spec?.takeAudio(sentence)),
      { canTransfer: this.deps.putThrough !== undefined, canBook: walk !== undefined, fixed: this.lang.lines },
    );
    if (signal.aborted) throw new TurnCancelled('cancelled');
    speaker.kind = turn.outcome.kind;
    let takeMessage = false;
    if (turn.outcome.kind === 'book' && walk) {
      // The diary is asked inside the turn: the stall watch still runs, so a slow diary gets the holding phrase.
      const booking = await walk.turn(turn.reply.booking, text, signal, this.lang.current);
      for (const line of booking.say) speaker.add(line);
      turn = bookingAnswer(turn, booking.say);
      takeMessage = booking.takeMessage === true;
    } else if (turn.outcome.kind === 'take-message' || turn.outcome.kind === 'transfer') walk?.abandon();
    this.turns.carryText = '';
    for (const line of turn.fixedLines) speaker.add(line);
    const undo = this.record(text, turn);
    if (takeMessage) this.turns.mode = 'message'; // a booking request: the caller's next words are their message
    try {
      await speaker.finished();
    } catch (err) {
      // The caller went on before hearing a word of it: as if it was never given, and
      // their words join the next turn.
      if (!speaker.started) undo();
      throw err;
    }
    if ((turn.outcome.kind === 'transfer' || turn.outcome.kind === 'take-message') && turn.outcome.urgent) this.deps.onUrgent?.('The caller said it was urgent.');
    if (turn.outcome.kind === 'transfer' && !signal.aborted) await this.putThrough(text, signal);
    if (turn.outcome.kind === 'goodbye' && !signal.aborted) this.close('agent');
  }

  /** Step 4b, put the caller through; if the owner does not take it, offer to take a message. */
  private async putThrough(callerWords: string, signal: AbortSignal): Promise<void> {
    this.transfer.inProgress = true;
    this.timers.stopSilence();
    this.timers.stopMax();
    this.cancelSpeculation('putting the caller through');
    this.deps.media.player.clear();
    let connected = false;
    try {
      connected = await this.deps.putThrough!(callerWords);
    } catch (err) {
      // The caller hung up meanwhile (the hang-up closes the conversation), or ARI failed.
      if (!this.end.ended) this.deps.log.warn({ err }, 'agent: putting the caller through failed');
    }
    if (this.end.ended) return;
    if (connected) {
      this.close('transfer');
      return;
    }
    this.transfer.inProgress = false;
    this.turns.mode = 'message';
    this.timers.startMax(() => void this.closeWith([this.lang.lines.lines.silenceGoodbye]), this.timing.maxCallMs);
    await this.speak([this.lang.lines.lines.afterTransfer], signal);
  }

  /** The model's reply: the speculation's, already under way, or asked now; stamps when its first text came. */
  private async *timedReplies(text: string, spec: Speculation | undefined, stages: TurnStages, signal: AbortSignal): AsyncGenerator<ResponderEvent> {
    const underWay = spec?.llmStartedAt !== undefined;
    stages.llmStart = spec?.llmStartedAt ?? this.now();
    const replies = spec && underWay ? spec.replies() : askAgent(this.deps.engines.replies, { system: this.system(), history: this.turns.history, callerText: text }, signal);
    for await (const ev of replies) {
      stages.firstText ??= spec?.firstTextAt ?? this.now();
      yield ev;
    }
  }

  /** Step 5, record: the history the model sees next turn, the mode it leads to, a question the owner should see. Returns its undo. */
  private record(text: string, turn: AgentAnswer): () => void {
    const historyMark = this.turns.history.length;
    this.turns.history.push({ role: 'user', content: text }, turn.historyReply);
    if (turn.outcome.kind === 'not-answered') this.deps.onUnanswered(text, turn.said, this.lang.current);
    if (turn.outcome.kind === 'take-message') this.turns.mode = 'message';
    return () => {
      this.turns.history.length = historyMark;
      this.turns.carryText = text;
    };
  }

  private async fallBackToVoicemail(): Promise<void> {
    this.deps.booking?.abandon();
    this.end.engineFailed = true;
    this.turns.mode = 'voicemail';
    this.deps.media.player.clear();
    await this.agentTurn('voicemail offer', async (signal) => {
      await this.speak([this.lang.lines.lines.engineFailure], signal);
      if (!signal.aborted && !this.end.ended) await this.deps.media.player.play(recordTone(this.deps.media.sampleRate));
    });
  }

  private async transcribe(audio: Int16Array, signal: AbortSignal): Promise<string> {
    const file = await writeTurnWav(this.deps.workDir, audio, this.deps.media.sampleRate);
    try {
      const heard = await this.deps.engines.stt.transcribe(file, { signal, language: this.lang.detects ? 'auto' : undefined });
      const text = heard.text.replace(/\[[^\][]*\]|\([^()]*\)/g, ' ').replace(/\s+/g, ' ').trim(); // whisper's "[BLANK_AUDIO]", "(coughs)"
      if (text) this.heardLanguages.set(text, { language: heard.language, probability: heard.languageProbability });
      return text;
    } finally {
      await fs.rm(file, { force: true });
    }
  }

  /** Step 1c, the language: the rule decides on the turn's words and what whisper heard; why it changed, if it did. */
  private heardInLanguage(heard: string): 'asked' | 'detected' | undefined {
    const d = this.lang.hear(heard, this.heardLanguages.get(heard) ?? {});
    this.heardLanguages.clear();
    if (!d.changed) return undefined;
    this.deps.log.info({ language: d.language, reason: d.reason }, 'agent: answering in another language');
    this.deps.onLanguage?.(d.language, this.speech.voiceName?.(this.input.voice, d.language));
    this.holdingAudio = undefined;
    this.prepareStallLines();
    return d.reason;
  }

  /** Step 2b, a caller who asked for a language hears that they have it, in it (a fixed line: the model is not asked). */
  private async languageAsked(text: string, stages: TurnStages, signal: AbortSignal): Promise<void> {
    const line = this.lang.lines.switched;
    this.turns.carryText = '';
    this.turns.history.push({ role: 'user', content: text }, { role: 'assistant', content: JSON.stringify({ intent: 'question', answered: true, answer: line }) });
    await this.speak([line], signal, this.metricsFor(stages, 'language'));
  }

  // ------------------------------------------------------------------ speaking

  private metricsFor(st: TurnStages, kind: string): FirstAudio {
    return (ttsFirstMs, firstFrameAt, readyAt, k) => {
      const vadWaitMs = st.workStart - st.endOfSpeech;
      const sttMs = (st.sttDone ?? st.workStart) - st.workStart;
      const llmFirstMs = st.llmStart !== undefined && st.firstText !== undefined ? st.firstText - st.llmStart : 0;
      const holdMs = Math.max(0, st.commitAt - readyAt);
      const totalMs = firstFrameAt - st.endOfSpeech;
      this.deps.onTurnMetrics?.({
        turn: st.turn,
        kind: k ?? kind,
        vadWaitMs,
        sttMs,
        llmFirstMs,
        ttsFirstMs,
        holdMs,
        totalMs,
        overheadMs: totalMs - vadWaitMs - sttMs - llmFirstMs - ttsFirstMs - holdMs,
        commitSilenceMs: st.commitSilenceMs,
        endSilenceMs: st.endSilenceMs,
        speculated: st.speculated,
        speculativeLlmCalls: st.speculativeLlmCalls,
      });
    };
  }

  /** Speaks sentences in order, synthesising ahead of playback; reports the first one's timing. */
  private streamingSpeaker(signal: AbortSignal, onFirstAudio?: FirstAudio) {
    const plays: Promise<PlayResult>[] = [];
    let chain: Promise<void> = Promise.resolve();
    let first = true;
    const api = {
      kind: undefined as string | undefined,
      /** Some of it reached the caller. */
      started: false,
      add: (text: string, ready?: ReadyAudio, language: LanguageCode = this.lang.current) => {
        const t0 = ready?.startedAt ?? this.now();
        const made = ready?.audio ?? sentenceAudio(this.speech, text, this.input.voice, this.deps.media.sampleRate, language);
        const audio = made.catch((err: unknown) => {
          throw new SpeechUnavailable(`could not synthesise "${text.slice(0, 40)}": ${(err as Error).message}`, { cause: err });
        });
        audio.catch(() => undefined); // surfaced through the chain below
        const isFirst = first;
        first = false;
        chain = chain.then(async () => {
          const pcm = await audio;
          if (signal.aborted || this.end.ended) return;
          const readyAt = ready?.readyAt() ?? this.now();
          const ttsMs = readyAt - t0;
          let line: TranscriptLine | undefined;
          const played = this.deps.media.player.play(pcm, {
            onStart: () => {
              api.started = true;
              this.stallWatch?.stop(); // the caller hears the agent: no holding phrase over it
              line = { speaker: 'Agent', text };
              this.turns.transcript.push(line);
              if (isFirst) onFirstAudio?.(ttsMs, this.now(), readyAt, api.kind);
            },
          });
          plays.push(
            played.then((r) => {
              if (r === 'dropped' && line) line.text += ' [interrupted]';
              return r;
            }),
          );
        });
      },
      finished: async (): Promise<void> => {
        await chain;
        await Promise.all(plays);
        if (signal.aborted) throw new TurnCancelled('interrupted');
      },
    };
    return api;
  }

  private async speak(lines: string[], signal: AbortSignal, onFirstAudio?: FirstAudio): Promise<void> {
    const s = this.streamingSpeaker(signal, onFirstAudio);
    for (const l of lines) s.add(l);
    await s.finished();
  }

  /** Says the last lines and ends the call (unless the caller interrupts with a new question). */
  private async closeWith(lines: string[]): Promise<void> {
    await this.agentTurn('closing', async (signal) => {
      await this.speak(lines, signal);
      if (!signal.aborted) this.close('agent');
    });
  }

  // ------------------------------------------------------------------ silence

  private startSilenceTimer(): void {
    this.timers.stopSilence();
    if (this.end.ended) return;
    this.timers.startSilence(() => {
      if (this.end.ended || this.turns.running || this.detector.speaking) return;
      this.timers.silencePrompts++;
      if (this.turns.mode === 'voicemail') void this.closeWith([this.lang.lines.goodbye(this.input.businessName)]);
      else if (this.timers.silencePrompts >= 2) void this.closeWith([this.lang.lines.lines.silenceGoodbye]);
      else void this.agentTurn('silence prompt', (signal) => this.speak([this.lang.lines.lines.silencePrompt], signal));
    }, this.timing.silencePromptMs);
  }

  private close(endedBy: ConversationResult['endedBy']): ConversationResult {
    const result: ConversationResult = { transcript: this.turns.transcript, endedBy, engineFailed: this.end.engineFailed, speechFailed: this.end.speechFailed };
    if (this.end.ended) return result;
    this.end.ended = true;
    this.cancelSpeculation('call ended');
    // The model is shared by every call: how much speculation costs is worth watching.
    this.deps.log.info(
      { turns: this.turns.count, speculativeModelCalls: this.speculation.callsTotal, cancelledSpeculations: this.speculation.cancelled },
      'agent: conversation over',
    );
    this.timers.stopSilence();
    this.timers.stopMax();
    this.stallWatch?.stop();
    this.detach?.();
    this.turns.abort?.abort(new TurnCancelled('call ended'));
    if (endedBy === 'caller') this.deps.media.player.clear();
    this.finish(result);
    return result;
  }
}
