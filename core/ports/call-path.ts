import type { AiMode } from '../../contract/api.js';
import type { AgentVoicemailReason } from '../../contract/enums.js';
import type { CallHandlingDecision } from '../../contract/call-handling.js';
import type { Call, User } from '../db/schema.js';
import type { BackoffPolicy } from '../time/backoff.js';
import type { ClaimedJob } from '../jobs/queue.js';
import type { StoreRecordingPayload } from '../jobs/recording-jobs.js';
import type { ForwardingChecks } from './forwarding-check.js';
import type { OutboundPermit, OutboundRefusal } from '../outbound/index.js';
import type { NewUnansweredQuestion } from '../questions/repository.js';
import type { FinishCall, OpenCall } from '../calls/call-store.js';
import type { NumberFacts, OwnerFacts } from '../calls/routing-rules.js';
import type { ScreenVerdict } from '../screening/verdict.js';
import type { CallTeam } from '../team/call-team.js';
import type { CallRoutingFacts } from '../team/routing-facts.js';

// The PBX's one port into the core's data: the interface pbx/ is written against. Its one
// implementation, over the database, is createCallPath (core/calls/call-path.ts), which the
// composition root (root/compose.ts) builds and hands to startPbx.

export type { Call } from '../db/schema.js';
export type { CallTeam, CallTeamMember } from '../team/call-team.js';
export type { StoreRecordingPayload } from '../jobs/recording-jobs.js';
export type { ClaimedJob } from '../jobs/queue.js';

/** What routing and the call flows know about the business behind a number. */
export interface CallOwner extends OwnerFacts {
  businessName: string | null;
  callGreeting: string | null;
  voice: User['voicePreference'];
  /** The agent's Q:/A: text. */
  knowledgeBase: string | null;
  /** SPEC's industry (trades that handle gas get the agent's gas safety line). */
  industry: string | null;
  /** The languages the agent may answer in, as stored (users.agent_languages; null: all). */
  agentLanguages: string | null;
  /** The agent's greeting languages in order, as stored (users.greeting_languages; null: English). */
  greetingLanguages: string | null;
  /** The owner's voice per caller language, as stored (users.language_voices; null: the female/male rule). */
  languageVoices: Record<string, string> | null;
  /** The owner's recorded greeting line per caller language, as stored (users.greeting_recordings: language → file name). */
  greetingRecordings: Record<string, string> | null;
}

/** A DID's row and its owner, as the routing rule (routing-rules.ts) takes them; absent when there is none. */
interface DidLookup {
  number?: NumberFacts;
  owner?: CallOwner;
}

/** What call handling decided for one call, with what a transfer needs. */
export interface HandlingPlan {
  decision: CallHandlingDecision;
  /** Null when there is none, or the appliance may not dial it now (core/outbound): the caller's flow goes on without it. */
  transferNumber: string | null;
  ringSeconds: number;
  /** A withheld caller the owner only takes messages from: no phone is rung for them, the team's neither. */
  messageOnly?: boolean;
}

/** `store-recording` jobs (recording-jobs.ts) on their own worker: only the PBX can reach Asterisk to run them. */
interface RecordingJobs {
  /** Durable: the job survives a restart. False when the call already has one. */
  queue(payload: StoreRecordingPayload & { message?: 'yes' | 'unknown' }, opts: { runAt: Date; maxAttempts: number }): Promise<boolean>;
  start(): void;
  kick(): void;
  stop(): Promise<void>;
}

/**
 * The one way the PBX reaches the core's tables during a call, all awaited. On SQLite, in WAL mode a reader never waits for a writer (SQLite's wal.html: "readers do not block
 * writers and a writer does not block readers"), so another process holding the write lock
 * (a backup, an operator's sqlite3 shell) cannot make them answer SQLITE_BUSY. Every write
 * goes through retryWhileBusy: each attempt blocks the thread for at most 25 ms, the waiting
 * happens between attempts, so calls in progress keep their audio while the lock is held.
 */
export interface CallPath {
  /** The DID (E.164, as phone_numbers holds it) with its owner's profile, status and settings. */
  lookupDid(did: string): Promise<DidLookup>;
  /** The owner by id (their greeting changed; a test transfer's briefing). */
  owner(userId: number): Promise<CallOwner | undefined>;
  /** The owner's call handling for this caller now (hours, block and VIP lists, withheld numbers, ring first). */
  handlingPlan(userId: number, aiMode: AiMode, callerNumber: string, now: Date): Promise<HandlingPlan>;
  /** Whether the caller is screened for the DID's owner before answering (issue 43): their spam list, the box-wide list as it stands at `now`. Index lookups only. */
  screenBeforeAnswer(did: string, callerNumber: string, now: Date): Promise<ScreenVerdict>;
  /** The business's team at `now` (issue 58): who works now, their confirmed phones, ring-first, the routing rules and today's on-call member. */
  team(userId: number, now: Date): Promise<CallTeam>;
  /** What the routing rules ask of this call besides the team (issue 58): whether its number was in touch before it, whether the business is closed at `now`. */
  routingFacts(userId: number, callId: number, now: Date): Promise<CallRoutingFacts>;
  /** The call's person (calls.staff_id: asked for, put through to, or whom the message is for) and what routing did, as Call Details shows it; the last write wins. */
  attributeCall(callId: number, staffId: number | null, routingNote: string): Promise<void>;
  /** The owner's transfer number and ring time (a test transfer). */
  transferTarget(userId: number): Promise<{ transferNumber: string | null; ringSeconds: number }>;
  /** The owner's own appliance number (their oldest active DID): a test transfer's caller ID. */
  ownerDid(userId: number): Promise<string | undefined>;
  /** Why the appliance may not call `number` for this owner now (number kind, account, daily cap); null when it may. */
  outboundRefusal(userId: number, number: string, now: Date): Promise<OutboundRefusal | null>;
  /** outboundRefusal, and when it may be placed, how long the call may last once answered (asked at the moment of dialling). */
  outboundPermit(userId: number, number: string, now: Date): Promise<OutboundPermit>;
  /** Asterisk took a call to an owner's phone: it counts towards their daily cap at once, as the longest it may last (`seconds`). Its row's id. */
  recordOutboundCall(call: { userId: number; startedAt: Date; seconds: number }): Promise<number>;
  /** That call has ended: its real ring and talk time replace the bound. */
  settleOutboundCall(id: number, seconds: number): Promise<void>;

  findCall(id: number): Promise<Call | undefined>;
  findCallByChannel(channelId: string): Promise<Call | undefined>;
  /** This node's rows whose call has not been made final (the core stopped or the link dropped mid-call). */
  openCalls(): Promise<Call[]>;

  /** Inserts the row for a channel, or finds the one already there (`existing`). The caller waits: up to 20 s. */
  openCall(call: OpenCall): Promise<{ call: Call; existing: boolean }>;
  /** Makes a call row final; false when it already was (only one finisher announces the call). */
  finishCall(id: number, result: FinishCall): Promise<boolean>;
  /** The agent's dialogue as the call's transcription, so the post-call job summarises it instead of transcribing the mix. */
  saveAgentTranscript(callId: number, transcript: string): Promise<void>;
  /** Urgent now, whatever the summary later makes of the call (post-call.ts never lowers a flagged call). */
  flagUrgent(callId: number, reason: string): Promise<void>;
  /** An agent-mode call turned to voicemail because the engines were full: tagged for the owner and the admin. */
  markAgentBusy(callId: number): Promise<void>;
  /** An agent-mode call whose engines stalled mid-conversation: the caller was offered voicemail. Tagged for the owner and the admin. */
  markAgentStalled(callId: number): Promise<void>;
  /** An agent-mode call answered in voicemail mode with the owner's greeting because agent mode was off on this node (issue 60): says why on the row. */
  markAgentVoicemail(callId: number, reason: AgentVoicemailReason): Promise<void>;
  /** A question the knowledge base did not cover, for the owner's list. */
  recordUnansweredQuestion(q: NewUnansweredQuestion): Promise<void>;
  /** The agent answers the caller in another language (issue 42), spoken by `voice`: recorded on the call (the last one wins). */
  setCallerLanguage(callId: number, language: string, voice: string | null): Promise<void>;
  /** A retried recording is stored: the row names its file (unless one already does). */
  recordingStored(callId: number, fileName: string): Promise<void>;
  /** A retried recording held silence only: the call is missed after all. */
  recordingHeldNoMessage(callId: number): Promise<void>;
  /** "Check my forwarding": the checks waiting for their call to come back (core/forwarding-check). */
  forwardingChecks: ForwardingChecks;
  /** The durable store-recording jobs, run by `run` (the PBX's fetch from Asterisk). */
  recordingJobs(opts: { run: (job: ClaimedJob) => Promise<void>; backoff: BackoffPolicy; pollMs?: number }): RecordingJobs;
  /** How many post-call jobs wait for a worker: admission's measure of a backlog (pbx/admission/). */
  pendingJobs(): Promise<number>;
}
