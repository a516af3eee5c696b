import { askAgent } from '../../../dialogue/agent/agent-responder.js';
import { asksModel } from '../../../dialogue/agent/turn-policy.js';
import type { TurnEvent } from '../../media/turn-detector.js';
import type { ConversationCore } from './conversation-core.js';
import type { SpeculationEntry } from './conversation-state.js';
import { endOfTurnSilenceMs, type EndOfTurnConfig } from './end-of-turn.js';
import { Speculation } from './speculation.js';
import { sentenceAudio } from './speech-audio.js';

// The conversation's side of speculation (speculation.ts runs the work): starting one on a
// pause with what the conversation holds then, letting its words set the end-of-turn silence,
// and handing it to the committed turn only if the conversation has not moved on since.

export class Speculating {
  constructor(
    private readonly core: ConversationCore,
    private readonly endOfTurn: EndOfTurnConfig,
    private readonly transcribe: (audio: Int16Array, signal: AbortSignal) => Promise<string>,
    /** The turn detector's events, which a new end-of-turn silence may bring at once. */
    private readonly onTurnEvent: (e: TurnEvent) => void,
  ) {}

  /** Starts the work for the turn so far; its words then set when the turn ends. */
  start(audio: Int16Array, endOfSpeech: number): SpeculationEntry {
    const { core } = this;
    const { rules } = core.turns;
    const system = core.system();
    const entry = { mode: rules.mode, carry: rules.carryText, historyLength: rules.history.length, system } as SpeculationEntry;
    const history = [...rules.history];
    entry.spec = new Speculation(
      {
        now: core.now,
        transcribe: (signal) => this.transcribe(audio, signal),
        reply: (heard, signal) => {
          if (!asksModel(entry.mode) || !heard) return null;
          // Asked after the turn committed (a slow Whisper), it is no longer a speculation.
          if (core.speculation.current === entry) {
            core.speculation.callsSinceTurn++;
            core.speculation.callsTotal++;
          }
          const callerText = [entry.carry, heard].filter(Boolean).join(' ');
          return askAgent(core.deps.engines.replies, { system, history, callerText }, signal);
        },
        synthesize: (text) => sentenceAudio(core.speech, text, core.input.voice, core.deps.media.sampleRate, core.lang.current),
      },
      endOfSpeech,
    );
    entry.spec.transcript.then(
      (heard) => {
        if (entry.spec.cancelled || core.speculation.current !== entry || core.end.ended) return;
        // A message is never cut short: callers leaving one pause between sentences.
        const ms = endOfTurnSilenceMs(heard, this.endOfTurn, asksModel(entry.mode));
        for (const e of core.detector.setEndSilence(ms)) this.onTurnEvent(e);
      },
      () => undefined, // an STT failure is the committed turn's to report
    );
    return entry;
  }

  cancel(reason: string): void {
    const { speculation } = this.core;
    const entry = speculation.current;
    if (!entry) return;
    speculation.current = null;
    entry.spec.cancel(reason);
    speculation.cancelled++;
  }

  /** The speculation this turn may take over, unless the conversation moved on since it started. */
  adoptable(entry: SpeculationEntry | undefined): Speculation | undefined {
    if (!entry) return undefined;
    const { rules } = this.core.turns;
    if (entry.mode === rules.mode && entry.carry === rules.carryText && entry.historyLength === rules.history.length && entry.system === this.core.system()) return entry.spec;
    // Cannot normally happen: start afresh rather than answer a different conversation.
    entry.spec.cancel('stale');
    this.core.speculation.cancelled++;
    return undefined;
  }
}
