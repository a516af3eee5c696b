import type { TurnConfig } from '../../media/turn-detector.js';
import { DEFAULT_END_OF_TURN, type EndOfTurnConfig } from './end-of-turn.js';
import { DEFAULT_STALL_BOUNDS, type StallBounds } from './stall-rule.js';

// How long the agent waits for what: the conversation's clocks, and their defaults.

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

/** The call's timing: the defaults, with what the caller of the conversation set over them. */
export function resolveTiming(given: Partial<ConversationTiming> | undefined): ConversationTiming {
  return {
    ...DEFAULT_TIMING,
    ...given,
    turn: { ...DEFAULT_TIMING.turn, ...given?.turn },
    endOfTurn: { ...DEFAULT_TIMING.endOfTurn, ...given?.endOfTurn },
    stall: { ...DEFAULT_TIMING.stall, ...given?.stall },
  };
}

/** The commit points: `defaultMs` follows turn.endSilenceMs unless given. */
export function endOfTurnOf(timing: ConversationTiming): EndOfTurnConfig {
  return { ...DEFAULT_END_OF_TURN, defaultMs: timing.turn.endSilenceMs ?? DEFAULT_END_OF_TURN.defaultMs, ...timing.endOfTurn };
}
