import type { TurnContext } from '../../../dialogue/agent/turn-policy.js';
import type { LanguageSession } from '../../../dialogue/language/language-session.js';
import type { PromptCache } from '../../../models/tts/index.js';
import type { TurnDetector } from '../../media/turn-detector.js';
import type { BargeInState, ConversationTimers, EndState, SpeculationState, TransferState, TurnState } from './conversation-state.js';
import type { ConversationDeps, ConversationInput, ConversationResult } from './conversation-ports.js';
import type { ConversationTiming } from './conversation-timing.js';
import type { Speaker } from './speaker.js';
import type { FirstAudio } from './turn-metrics.js';

// What the conversation's parts share: the call's settings and state, and the few things only
// the conversation itself does (run one agent action at a time, speak, end). Its own module so
// the parts (caller audio, speculation, the turn, the stall watch, the actions) depend on it,
// not on each other or on conversation.ts.

export interface ConversationCore {
  readonly deps: ConversationDeps;
  readonly input: ConversationInput;
  readonly timing: ConversationTiming;
  readonly detector: TurnDetector;
  readonly now: () => number;
  /** The language the agent answers in, and what follows from it (dialogue/language). */
  readonly lang: LanguageSession;
  /** The prompt cache in the owner's voice for each language. */
  readonly speech: PromptCache;
  readonly turns: TurnState;
  readonly speculation: SpeculationState;
  readonly bargeIn: BargeInState;
  readonly transfer: TransferState;
  readonly timers: ConversationTimers;
  readonly end: EndState;
  /** The model's instructions now: the same every turn, unless a booking step is in progress. */
  system(): string;
  /** What the turn rules know of the call now (its lines follow the language). */
  rulesContext(): TurnContext;
  /** Runs one agent action, cancelling any previous one; engine failures fall back to voicemail. */
  agentTurn(what: string, work: (signal: AbortSignal) => Promise<void>): Promise<void>;
  speaker(signal: AbortSignal, onFirstAudio?: FirstAudio): Speaker;
  speak(lines: string[], signal: AbortSignal, onFirstAudio?: FirstAudio): Promise<void>;
  /** Says the last lines and ends the call (unless the caller interrupts with a new question). */
  closeWith(lines: string[]): Promise<void>;
  close(endedBy: ConversationResult['endedBy']): ConversationResult;
  startMaxTimer(): void;
  cancelSpeculation(reason: string): void;
}
