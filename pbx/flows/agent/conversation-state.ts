import { initialTurnState, type Mode, type TurnPolicyState } from '../../../dialogue/agent/turn-policy.js';
import type { Speculation } from './speculation.js';
import type { TranscriptLine } from './transcript.js';

// What an AgentConversation keeps while a call goes on, one small object per concern, so each
// piece of state is read and changed where its concern is handled (conversation.ts and the modules it delegates to).

/** The conversation so far and the agent action in progress. */
export interface TurnState {
  /** What was said, for the call's record. */
  readonly transcript: TranscriptLine[];
  /** What the turn rules remember (mode, history, words carried over): dialogue/agent/turn-policy.ts. */
  rules: TurnPolicyState;
  /** Committed caller turns. */
  count: number;
  /** Cancels the agent action in progress (a reply, a prompt, a closing). */
  abort: AbortController | null;
  /** An agent action is in progress. */
  running: boolean;
}

/** A speculation and what it assumed; a turn adopts it only if that still holds. */
export interface SpeculationEntry {
  spec: Speculation;
  mode: Mode;
  carry: string;
  historyLength: number;
  /** The system prompt it asked with (a booking step changes it). */
  system: string;
}

/** The work started before the caller's turn ended, and what it has cost. */
export interface SpeculationState {
  current: SpeculationEntry | null;
  /** Speculative model calls since the last committed turn. */
  callsSinceTurn: number;
  /** Speculative model calls over the call. */
  callsTotal: number;
  cancelled: number;
}

/** The caller spoke over the agent: its speech is paused until the sound proves a real turn or a blip. */
export interface BargeInState {
  pausedAt: number | null;
}

/** How the conversation is ending, or ended. */
export interface EndState {
  ended: boolean;
  speechFailed: boolean;
}

/** Putting the caller through to the owner. */
export interface TransferState {
  /** Under way: the caller's audio is not a turn, and no timer may speak. */
  inProgress: boolean;
}

/** The two clocks that may speak without the caller: the silence prompt and the call's longest length. */
export class ConversationTimers {
  private silence: NodeJS.Timeout | undefined;
  private max: NodeJS.Timeout | undefined;

  startSilence(fire: () => void, ms: number): void {
    this.stopSilence();
    this.silence = setTimeout(fire, ms);
  }

  stopSilence(): void {
    if (this.silence) clearTimeout(this.silence);
    this.silence = undefined;
  }

  startMax(fire: () => void, ms: number): void {
    this.max = setTimeout(fire, ms);
  }

  stopMax(): void {
    clearTimeout(this.max);
  }
}

export function newTurnState(): TurnState {
  return { transcript: [], rules: initialTurnState(), count: 0, abort: null, running: false };
}

export function newSpeculationState(): SpeculationState {
  return { current: null, callsSinceTurn: 0, callsTotal: 0, cancelled: 0 };
}
