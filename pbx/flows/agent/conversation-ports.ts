import type { ReplyStreamer } from '../../../models/llm/language-model.js';
import type { LanguageCode } from '../../../dialogue/language/languages.js';
import type { BookingWalk } from '../../../dialogue/agent/booking-walk.js';
import type { CallBackDesk } from '../../../dialogue/agent/call-back-desk.js';
import type { CallRouting } from '../../../dialogue/agent/person-routing.js';
import type { SpeechToText } from '../../../models/stt/speech-to-text.js';
import type { PromptCache, Voice } from '../../../models/tts/index.js';
import type { PacedPlayer } from '../../media/paced-player.js';
import type { VoiceActivityDetector } from '../../media/vad.js';
import type { Log } from '../../../contract/log.js';
import type { ConversationTiming } from './conversation-timing.js';
import type { BargeInMetrics, TurnMetrics } from './turn-metrics.js';
import type { TranscriptLine } from './transcript.js';

// What a conversation is given (media, engines, the owner's settings, what to tell the flow)
// and what it comes to. Knows nothing of ARI: the simulator, a real Asterisk or a benchmark
// can stand behind it.

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
  /** A call the agent placed (issue 56's call-backs): these lines are said in place of the greeting, and `context` is added to the model's instructions. */
  opening?: { lines: readonly string[]; context: string | null };
}

export interface ConversationResult {
  transcript: TranscriptLine[];
  /** Who closed the call: the agent (goodbye said; hang up now), the caller, a put-through call that has ended, or the owner taking the call over (issue 54: the call goes on without the agent). */
  endedBy: 'agent' | 'caller' | 'transfer' | 'taken-over';
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
  /** The dialogue changed (a caller's words as recognised, an agent sentence as heard, one cut short): the Live page shows it. */
  onTranscript?(lines: readonly TranscriptLine[]): void;
  onBargeIn?(m: BargeInMetrics): void;
  /**
   * Set when the owner can be rung: puts the caller through with what they said so far.
   * Resolves true once the two were connected (and that call is over), false when the
   * owner did not take it (the caller has been told so).
   */
  putThrough?(callerWords: string): Promise<boolean>;
  /** The business's team and routing rules (issue 58): a caller can ask for a member, and the rules choose whom to ring. */
  routing?: CallRouting;
  /** Set when a team member's phone can be rung: as putThrough, to their confirmed phone `to`. */
  putThroughTo?(to: string, callerWords: string): Promise<boolean>;
  /** Routing named the call's person and what it did (calls.staff_id, calls.routing_note). */
  onAttribute?(staffId: number, note: string): void;
  /** The caller said it is urgent, or mentioned a gas leak: the call is flagged for the owner. */
  onUrgent?(reason: string): void;
  /** The engines stalled on a turn and the caller was offered voicemail: the call is tagged. */
  onStalled?(): void;
  /**
   * Set when the owner has bookable services and a diary (issue 41): "book" replies walk the
   * caller through a booking. Without it the agent never books, exactly as before.
   */
  booking?: BookingWalk;
  /** Set when the owner lets the agent ring callers back (issue 56): a caller's "ring me back after four" is agreed and recorded. */
  callBacks?: CallBackDesk;
  now?: () => number;
}
