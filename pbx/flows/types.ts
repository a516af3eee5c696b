import type { CallPath, CallTeam } from '../../core/ports/call-path.js';
import type { LiveCallFeed } from '../../core/ports/live-calls.js';
import type { Log } from '../../contract/log.js';
import type { Voice } from '../../models/tts/index.js';
import type { PromptCache } from '../../models/tts/index.js';
import type { AriRest } from '../ari/types.js';
import type { CallSession } from '../call-session.js';
import type { TransferDeps, TransferResult } from './transfer/transfer-types.js';

/** What a flow knows about the business that owns the number. */
export interface OwnerProfile {
  userId: number;
  businessName: string | null;
  callGreeting: string | null;
  voice: Voice;
  /** The agent's Q:/A: text. */
  knowledgeBase: string | null;
  /** SPEC's industry: trades that handle gas get the agent's gas safety line. */
  industry: string | null;
  /** The languages the agent may answer in (users.agent_languages as stored; null: all the box speaks). */
  languages?: string | null;
  /** The greeting's languages in order (users.greeting_languages as stored; null: English). */
  greetingLanguages?: string | null;
  /** The owner's voice per caller language (users.language_voices as stored; null: the female/male rule). */
  languageVoices?: Record<string, string> | null;
  /** The owner's recorded greeting line per caller language, and the voicemail greeting under 'voicemail' (users.greeting_recordings as stored: key → file name). */
  greetingRecordings?: Record<string, string> | null;
}

export interface VoicemailLimits {
  maxDurationSeconds: number;
  maxSilenceSeconds: number;
}

export interface FlowContext {
  session: CallSession;
  rest: AriRest;
  prompts: PromptCache;
  log: Log;
  /** The core's call path (core/calls/call-path.ts): a flow's only way to the database. */
  callPath: CallPath;
  owner: OwnerProfile;
  callId: number;
  limits: VoicemailLimits;
  /** $DATA_DIR: where the owner's own recorded voicemail greeting is (voicemail/voicemail-greeting.ts); unset, the spoken greeting is said. */
  dataDir?: string;
  /**
   * The call was already in progress when this run of the core took it over (restart):
   * the flow continues where the call stands instead of starting again.
   */
  resumed?: boolean;
  /** What the flow found out so far; read by the finisher even if the flow throws. */
  outcome: FlowOutcome;
  /** Set when OUTBOUND_ENDPOINT is configured: how to put the caller through to a phone. */
  transfer?: TransferDeps;
  /** The owner's transfer number and ring time, when they set one (call handling). */
  ownerPhone?: { to: string; ringSeconds: number };
  /** The Live page's registry (core/ports/live-calls.ts): a put-through call is shown as one. */
  live?: LiveCallFeed;
  /** The business's team as this call found it, once a step has read it (transfer/team-first.ts callTeam). */
  team?: Promise<CallTeam>;
}

export interface FlowOutcome {
  answered: boolean;
  /** Set once a recording was started on Asterisk under this name. */
  recordingName?: string;
  /** The recording's result: message (keep it), none (silence only), or unknown (events lost). */
  message?: 'yes' | 'no' | 'unknown';
  /**
   * Set by a flow that held a conversation (agent mode): the call was answered, whatever
   * its recording turned out to be. Otherwise the finisher decides from the recording.
   */
  status?: 'answered';
  /** Set once the caller was offered to the owner's phone. */
  transfer?: TransferResult;
}

export type CallFlow = (ctx: FlowContext) => Promise<void>;
