import type { ConversationCore } from './conversation-core.js';
import type { SpeculationEntry } from './conversation-state.js';
import type { CallerWords } from './caller-words.js';
import type { Speculating } from './speculating.js';
import type { Speculation } from './speculation.js';
import type { StallWatching } from './stall-watching.js';
import type { TurnActions } from './turn-actions.js';
import { startStages, type TurnStages } from './turn-metrics.js';

// One committed caller turn: adopt the speculation (if it still holds), transcribe, let the
// language rule hear the words, then hand them to the turn rules (turn-actions.ts), while the
// stall watch fills a silence the engines leave. Metrics follow the stages.

export class CallerTurn {
  constructor(
    private readonly core: ConversationCore,
    private readonly words: CallerWords,
    private readonly speculating: Speculating,
    private readonly stall: StallWatching,
    private readonly actions: TurnActions,
  ) {}

  async run(audio: Int16Array, silenceMs: number, detectedAt: number, short = false, entry?: SpeculationEntry, endSilenceMs = silenceMs): Promise<void> {
    const { core } = this;
    const spec = this.speculating.adoptable(entry);
    const n = ++core.turns.count;
    const stages = startStages(n, spec, detectedAt, silenceMs, endSilenceMs, core.speculation.callsSinceTurn);
    core.speculation.callsSinceTurn = 0;
    await core.agentTurn(`turn ${n}`, async (signal) => {
      const stopWatch = this.stall.start(stages, signal);
      try {
        await this.steps(audio, short, spec, stages, signal);
      } finally {
        stopWatch();
      }
    });
  }

  /** The turn's steps, while its silence is watched. */
  private async steps(audio: Int16Array, short: boolean, spec: Speculation | undefined, stages: TurnStages, signal: AbortSignal): Promise<void> {
    spec?.adopt(signal);
    // Transcribe: the speculation's words when it ran Whisper already.
    const heard = spec ? await spec.transcript : await this.words.transcribe(audio, signal);
    stages.sttDone = spec?.sttDoneAt ?? this.core.now();
    const language = heard ? this.words.language(heard) : undefined;
    // A reply the speculation began in the old language is not the one to give.
    if (language && spec) {
      spec.cancel('the caller changed language');
      spec = undefined;
    }
    if (heard) {
      const line = { speaker: 'Caller', text: heard } as const;
      this.core.turns.transcript.push(line);
      this.core.deps.onTranscript?.(this.core.turns.transcript);
    }
    await this.actions.perform({ on: 'words', words: heard, short, ...(language && { language }) }, { signal, stages, ...(spec && { spec }) });
  }
}
