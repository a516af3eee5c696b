import { setMaxListeners } from 'node:events';
import { buildAgentSystemPrompt } from '../../../dialogue/agent/agent-prompt.js';
import type { TurnContext } from '../../../dialogue/agent/turn-policy.js';
import { LanguageSession } from '../../../dialogue/language/language-session.js';
import type { LanguageCode } from '../../../dialogue/language/languages.js';
import { handlesGas } from '../../../dialogue/spoken/safety-line.js';
import { withChosenVoices, type PromptCache } from '../../../models/tts/index.js';
import { TurnDetector } from '../../media/turn-detector.js';
import { CallerAudio } from './caller-audio.js';
import { CallerTurn } from './caller-turn.js';
import { CallerWords } from './caller-words.js';
import type { ConversationCore } from './conversation-core.js';
import type { ConversationDeps, ConversationInput, ConversationResult } from './conversation-ports.js';
import { ConversationTimers, newSpeculationState, newTurnState, type BargeInState, type EndState, type TransferState } from './conversation-state.js';
import { endOfTurnOf, resolveTiming, type ConversationTiming } from './conversation-timing.js';
import { speakGreeting } from './greeting.js';
import { Speaker } from './speaker.js';
import { Speculating } from './speculating.js';
import { StallWatching } from './stall-watching.js';
import { TurnActions } from './turn-actions.js';
import { SpeechUnavailable, TurnCancelled } from './turn-errors.js';
import type { FirstAudio } from './turn-metrics.js';
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
//
// What a committed turn leads to is the turn policy's (dialogue/agent/turn-policy.ts); this
// class and its parts keep the audio and the clocks, and carry the policy's actions out:
// caller-audio.ts (frames, barge-in), speculating.ts, caller-turn.ts, turn-actions.ts,
// speaker.ts, stall-watching.ts.

export class AgentConversation implements ConversationCore {
  /** The system prompt for the booking step and language it was built for (booking-walk.ts): rebuilt only when the step changes. */
  private prompt: { step: string | null; language: LanguageCode; text: string } | undefined;
  readonly lang: LanguageSession;
  readonly speech: PromptCache;
  readonly timing: ConversationTiming;
  readonly detector: TurnDetector;
  readonly now: () => number;
  readonly turns = newTurnState();
  readonly speculation = newSpeculationState();
  readonly bargeIn: BargeInState = { pausedAt: null };
  readonly transfer: TransferState = { inProgress: false };
  readonly timers = new ConversationTimers();
  readonly end: EndState = { ended: false, speechFailed: false };
  private finish!: (r: ConversationResult) => void;
  private readonly done = new Promise<ConversationResult>((r) => (this.finish = r));
  private detach: (() => void) | undefined;
  private readonly stall: StallWatching;
  private readonly actions: TurnActions;
  private readonly speculating: Speculating;
  private readonly audio: CallerAudio;

  constructor(
    readonly deps: ConversationDeps,
    readonly input: ConversationInput,
  ) {
    this.timing = resolveTiming(deps.timing);
    this.detector = new TurnDetector({ ...this.timing.turn, speculateMs: this.timing.speculative ? this.timing.turn.speculateMs : 0 });
    // Each language in the voice the owner chose for it.
    this.speech = withChosenVoices(deps.engines.speech, input.languageVoices);
    this.lang = new LanguageSession(input.languages, (language) => this.withContext(buildAgentSystemPrompt({ businessName: input.businessName, knowledgeBase: input.knowledgeBase, language })));
    this.now = deps.now ?? (() => performance.now());
    this.actions = new TurnActions(this, () => this.stall.holdingAudio);
    this.stall = new StallWatching(this, (event) => this.actions.perform(event));
    const words = new CallerWords(this, () => this.stall.languageChanged());
    this.speculating = new Speculating(this, endOfTurnOf(this.timing), (audio, signal) => words.transcribe(audio, signal), (e) => this.audio.onTurnEvent(e));
    const turn = new CallerTurn(this, words, this.speculating, this.stall, this.actions);
    this.audio = new CallerAudio(this, this.speculating, {
      callerTurn: (...args) => turn.run(...args),
      startSilenceTimer: () => this.startSilenceTimer(),
    });
  }

  system(): string {
    const walk = this.deps.booking;
    const step = walk?.promptStep() ?? null;
    const language = this.lang.current;
    if (!this.prompt || this.prompt.step !== step || this.prompt.language !== language) {
      const booking = walk ? { step } : undefined;
      this.prompt = { step, language, text: this.withContext(buildAgentSystemPrompt({ businessName: this.input.businessName, knowledgeBase: this.input.knowledgeBase, language, ...(booking && { booking }) })) };
    }
    return this.prompt.text;
  }

  /** A call the agent placed: what it is for (a call-back's first call), after the usual instructions. */
  private withContext(prompt: string): string {
    const context = this.input.opening?.context;
    return context ? `${prompt}\n\n${context}` : prompt;
  }

  rulesContext(): TurnContext {
    return {
      businessName: this.input.businessName,
      handlesGas: handlesGas(this.input.industry),
      canTransfer: this.deps.putThrough !== undefined,
      canBook: this.deps.booking !== undefined,
      lines: this.lang.lines,
      ...(this.deps.routing && { routing: this.deps.routing }),
      ...(this.deps.callBacks && { canRingBack: true }),
    };
  }

  /** Runs until the agent says goodbye or `hangup` fires (the caller left). */
  run(hangup: AbortSignal): Promise<ConversationResult> {
    if (hangup.aborted) return Promise.resolve(this.close('caller'));
    hangup.addEventListener('abort', () => this.close('caller'), { once: true });
    this.detach = this.deps.media.onFrame((f) => this.audio.onFrame(f));
    this.startMaxTimer();
    void this.agentTurn('greeting', (signal) => speakGreeting(this, signal));
    this.stall.prepareLines();
    return this.done;
  }

  startMaxTimer(): void {
    this.timers.startMax(() => void this.actions.perform({ on: 'max-length' }), this.timing.maxCallMs);
  }

  cancelSpeculation(reason: string): void {
    this.speculating.cancel(reason);
  }

  async agentTurn(what: string, work: (signal: AbortSignal) => Promise<void>): Promise<void> {
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
      const speech = err instanceof SpeechUnavailable;
      if (speech) this.deps.log.error({ err, what }, 'agent: speech synthesis failed; handing the call to voicemail');
      else this.deps.log.warn({ err, what }, 'agent: engine failure; offering voicemail');
      await this.actions.perform({ on: 'failed', speech, closing: what === 'closing' }, { signal: ac.signal });
      return;
    } finally {
      if (this.turns.abort === ac) {
        this.turns.abort = null;
        this.turns.running = false;
      }
    }
    if (!this.end.ended && this.turns.abort === null && !this.detector.speaking) this.startSilenceTimer();
  }

  speaker(signal: AbortSignal, onFirstAudio?: FirstAudio): Speaker {
    const port = {
      now: this.now,
      speech: this.speech,
      voice: this.input.voice,
      sampleRate: this.deps.media.sampleRate,
      player: this.deps.media.player,
      language: () => this.lang.current,
      ended: () => this.end.ended,
      amended: () => this.deps.onTranscript?.(this.turns.transcript),
      heard: (line: TranscriptLine) => {
        this.stall.stop(); // the caller hears the agent: no holding phrase over it
        this.turns.transcript.push(line);
        this.deps.onTranscript?.(this.turns.transcript);
      },
    };
    return new Speaker(port, signal, onFirstAudio);
  }

  async speak(lines: string[], signal: AbortSignal, onFirstAudio?: FirstAudio): Promise<void> {
    const s = this.speaker(signal, onFirstAudio);
    for (const l of lines) s.add(l);
    await s.finished();
  }

  async closeWith(lines: string[]): Promise<void> {
    await this.agentTurn('closing', async (signal) => {
      await this.speak(lines, signal);
      if (!signal.aborted) this.close('agent');
    });
  }

  /**
   * The owner takes the call over (issue 54, pbx/live-control): the agent stops listening and
   * whatever it was saying, says `line` (its handover, in the caller's language) once, and the
   * conversation ends for good ('taken-over'): nothing after this speaks on the call.
   */
  async handOver(line: string): Promise<void> {
    if (this.end.ended || this.handingOver) return;
    this.handingOver = true;
    this.detach?.();
    this.cancelSpeculation('taken over');
    this.timers.stopSilence();
    this.timers.stopMax();
    this.stall.stop();
    this.turns.abort?.abort(new TurnCancelled('taken over'));
    this.deps.media.player.clear();
    await this.speak([line], new AbortController().signal).catch((err: unknown) => this.deps.log.warn({ err }, 'agent: the handover line could not be said'));
    this.close('taken-over');
  }

  private handingOver = false;

  /** The caller's silence while the agent listens: the turn rules say whether to prompt or close. */
  private startSilenceTimer(): void {
    this.timers.stopSilence();
    if (this.end.ended || this.handingOver) return;
    this.timers.startSilence(() => {
      if (this.end.ended || this.turns.running || this.detector.speaking) return;
      void this.actions.perform({ on: 'silence' });
    }, this.timing.silencePromptMs);
  }

  close(endedBy: ConversationResult['endedBy']): ConversationResult {
    const result: ConversationResult = { transcript: this.turns.transcript, endedBy, engineFailed: this.turns.rules.engineFailed, speechFailed: this.end.speechFailed };
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
    this.stall.stop();
    this.detach?.();
    this.turns.abort?.abort(new TurnCancelled('call ended'));
    if (endedBy === 'caller') this.deps.media.player.clear();
    this.finish(result);
    return result;
  }
}
