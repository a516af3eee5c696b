import type { TurnEvent } from '../../../dialogue/agent/turn-policy.js';
import type { ConversationCore } from './conversation-core.js';
import { sentenceAudio } from './speech-audio.js';
import { stallPlan, StallWatch, type StallStep, type StepOutcome } from './stall-rule.js';
import type { TurnStages } from './turn-metrics.js';

// The clock on a committed turn that has not been answered aloud (stall-rule.ts has the plan,
// the turn policy what each step means), and the holding phrase made ahead: a stalled TTS
// engine could not make it when it is needed.

export class StallWatching {
  /** The holding phrase in the language the agent answers in, once synthesised. */
  holdingAudio: Int16Array | undefined;
  /** Runs while a committed turn is owed its first audio. */
  private watch: StallWatch | null = null;

  constructor(
    private readonly core: ConversationCore,
    /** The turn rules' answer to a stall step, carried out. */
    private readonly decide: (event: TurnEvent) => Promise<void>,
  ) {}

  /** After the greeting's, at background priority: once cached (on disk, per voice) this costs nothing. */
  prepareLines(): void {
    const { core } = this;
    const language = core.lang.current;
    const prepare = (text: string) =>
      core.speech.get(text, core.input.voice, 'background', language).then(() => sentenceAudio(core.speech, text, core.input.voice, core.deps.media.sampleRate, language));
    prepare(core.lang.lines.lines.holding).then(
      (pcm) => {
        if (core.lang.current === language) this.holdingAudio = pcm; // not a line in the language the caller has left
      },
      (err: unknown) => core.deps.log.warn({ err }, 'agent: could not prepare the holding phrase; a slow answer will be waited for in silence'),
    );
    prepare(core.lang.lines.lines.engineFailure).catch(() => undefined); // said through the cache when needed; its failure is reported then
  }

  /** The agent answers in another language now: the holding phrase is made again, in it. */
  languageChanged(): void {
    this.holdingAudio = undefined;
    this.prepareLines();
  }

  /** Until the turn's first audio starts (or the turn ends), the silence is watched. Returns its stop. */
  start(stages: TurnStages, signal: AbortSignal): () => void {
    this.stop();
    const { core } = this;
    const plan = stallPlan(core.turns.rules.mode, core.timing.stall, stages.commitAt - stages.endOfSpeech);
    const watch = new StallWatch(plan, stages.endOfSpeech, core.now, (step) => this.onStall(step, stages));
    this.watch = watch;
    const stop = () => {
      watch.stop();
      if (this.watch === watch) this.watch = null;
    };
    signal.addEventListener('abort', stop, { once: true });
    return stop;
  }

  /** The caller hears the agent (or the call is over): no holding phrase over it. */
  stop(): void {
    this.watch?.stop();
  }

  private onStall(step: StallStep, stages: TurnStages): StepOutcome {
    const { core } = this;
    if (core.end.ended || core.transfer.inProgress) return;
    const waitedMs = Math.round(core.now() - stages.endOfSpeech);
    const log = core.deps.log;
    if (step === 'hold') {
      // The answer's first sentence is with the voice: only its synthesis is left, a fraction
      // of the phrase's own length, and the answer would wait behind the whole phrase (issue 61:
      // the slow turn's 1.4 s). The phrase is put off until the voice has had the hold bound
      // itself, so a stuck TTS engine still gets it.
      const voiceSince = stages.voiceAt === undefined ? undefined : core.now() - stages.voiceAt;
      if (voiceSince !== undefined && voiceSince < core.timing.stall.holdMs) return { retryInMs: core.timing.stall.holdMs - voiceSince };
      // Not over the caller, and not without its audio (the TTS engine may be what is stuck).
      if (core.detector.speaking || !this.holdingAudio) return;
      log.info({ turn: stages.turn, waitedMs }, 'agent: the answer is slow; holding phrase');
    } else {
      this.watch?.stop();
      this.watch = null;
      if (step === 'close') log.warn({ turn: stages.turn, waitedMs }, 'agent: the message could not be transcribed in time; it is in the recording');
      else log.warn({ turn: stages.turn, waitedMs }, 'agent: the engines stalled on a turn; offering voicemail');
    }
    void this.decide({ on: 'stall', step });
  }
}
