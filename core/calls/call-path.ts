import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { AiMode } from '../../contract/api.js';
import type { CallHandlingDecision } from '../../contract/call-handling.js';
import { decideHandling, loadCallHandling, ownerDid } from '../call-handling/index.js';
import { retryWhileBusy, type Db } from '../db/client.js';
import { preparedPerDb } from '../db/prepared.js';
import { tablesOf, type Call, type User } from '../db/schema.js';
import type { BackoffPolicy } from '../time/backoff.js';
import { JobQueue, type ClaimedJob } from '../jobs/queue.js';
import { storeRecordingKey, storeRecordingKind, type StoreRecordingPayload } from '../jobs/recording-jobs.js';
import { DEFAULT_NODE } from '../config/config.js';
import type { Log } from '../../contract/log.js';
import { JobWorker } from '../jobs/worker.js';
import { createForwardingChecks, type ForwardingChecks } from '../forwarding-check/index.js';
import { DEFAULT_OUTBOUND_POLICY, outboundPermitNow, outboundRefusalNow, recordOutboundCall, settleOutboundCall, type OutboundPermit, type OutboundPolicy, type OutboundRefusal } from '../outbound/index.js';
import { recordUnansweredQuestion, type NewUnansweredQuestion } from '../questions/repository.js';
import { findCallByChannel, finishCall, openCall, openCalls, type FinishCall, type OpenCall } from './call-store.js';
import type { NumberFacts, OwnerFacts } from './routing-rules.js';
import { screenBeforeAnswer } from '../screening/lookup.js';
import type { ScreenVerdict } from '../screening/verdict.js';

export type { Call } from '../db/schema.js';
export type { StoreRecordingPayload } from '../jobs/recording-jobs.js';
export type { ClaimedJob } from '../jobs/queue.js';

/** What routing and the call flows know about the business behind a number. */
interface CallOwner extends OwnerFacts {
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
  /** Whether the caller is screened for the DID's owner before answering (issue 43): their spam list, the box-wide list. One index lookup. */
  screenBeforeAnswer(did: string, callerNumber: string): Promise<ScreenVerdict>;
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

const statements = preparedPerDb('call-path', (db, { calls, phoneNumbers, users }) => ({
  number: db
    .select()
    .from(phoneNumbers)
    .where(eq(phoneNumbers.phoneNumber, sql.placeholder('did')))
    .limit(1),
  user: db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1),
  call: db
    .select()
    .from(calls)
    .where(eq(calls.id, sql.placeholder('id')))
    .limit(1),
}));

function callOwnerOf(u: User): CallOwner {
  return {
    id: u.id,
    accountStatus: u.accountStatus,
    trialExpiresAt: u.trialExpiresAt,
    aiMode: u.aiMode,
    businessName: u.businessName,
    callGreeting: u.callGreeting,
    voice: u.voicePreference,
    knowledgeBase: u.knowledgeBase,
    industry: u.industry,
    agentLanguages: u.agentLanguages,
    greetingLanguages: u.greetingLanguages,
    languageVoices: u.languageVoices,
    greetingRecordings: u.greetingRecordings,
  };
}

/** Built once by the PBX's composition root (pbx/index.ts startPbx) over the appliance database. */
/** `node`: this core's NODE_NAME; its calls are tagged with it and only they are reconciled here. */
export function createCallPath(db: Db, log: Log, outbound: OutboundPolicy = DEFAULT_OUTBOUND_POLICY, node: string = DEFAULT_NODE): CallPath {
  const { calls, jobs } = tablesOf(db);
  const write = <T>(what: string, fn: () => T | Promise<T>, maxWaitMs?: number) => retryWhileBusy(db, what, fn, { log, ...(maxWaitMs ? { maxWaitMs } : {}) });
  const owner = async (userId: number) => {
    const u = (await statements(db).user.execute({ id: userId }))[0];
    return u ? callOwnerOf(u) : undefined;
  };
  const refusal = (userId: number, number: string, now: Date): Promise<OutboundRefusal | null> => outboundRefusalNow(db, userId, number, outbound, now);
  return {
    async lookupDid(did) {
      const number = (await statements(db).number.execute({ did }))[0];
      return { number, owner: number?.userId != null ? await owner(number.userId) : undefined };
    },
    owner,
    async handlingPlan(userId, aiMode, callerNumber, now) {
      const settings = await loadCallHandling(db, userId);
      const decision = decideHandling(settings, aiMode, callerNumber, now);
      let transferNumber = settings.transferNumber;
      // Past the daily cap, or a number saved before the dialling rules: the caller's flow takes a message instead.
      const refused = transferNumber && decision.kind === 'answer' ? await refusal(userId, transferNumber, now) : null;
      if (refused) {
        log.info({ userId, reason: refused.kind, why: refused.message }, 'not putting callers through');
        transferNumber = null;
      }
      return { decision, transferNumber, ringSeconds: settings.transferTimeoutSeconds };
    },
    screenBeforeAnswer: (did, callerNumber) => screenBeforeAnswer(db, did, callerNumber),
    async transferTarget(userId) {
      const { transferNumber, transferTimeoutSeconds } = await loadCallHandling(db, userId);
      return { transferNumber, ringSeconds: transferTimeoutSeconds };
    },
    ownerDid: (userId) => ownerDid(db, userId),
    forwardingChecks: createForwardingChecks(db),
    outboundRefusal: refusal,
    outboundPermit: (userId, number, now) => outboundPermitNow(db, userId, number, outbound, now),
    recordOutboundCall: (call) => write(`record an outbound call for owner ${call.userId}`, () => recordOutboundCall(db, call)),
    settleOutboundCall: async (id, seconds) => {
      await write(`settle outbound call ${id}`, () => settleOutboundCall(db, id, seconds));
    },

    findCall: async (id) => (await statements(db).call.execute({ id }))[0] as Call | undefined,
    findCallByChannel: (channelId) => findCallByChannel(db, channelId),
    openCalls: () => openCalls(db, node),

    // A backup or an operator's sqlite3 session may hold the write lock: the row is retried
    // with the thread free (other calls keep their audio), for up to 20 s; then goodbye.
    openCall: (call) => write('open the call row', () => openCall(db, { ...call, node }), 20_000),
    finishCall: (id, result) => write(`finish call ${id}`, () => finishCall(db, id, result)),
    saveAgentTranscript: async (callId, transcript) => {
      await write(`save the agent transcript of call ${callId}`, async () =>
        await db.update(calls).set({ transcription: transcript, transcriptionStatus: 'done' }).where(eq(calls.id, callId)),
      );
    },
    flagUrgent: async (callId, reason) => {
      await write(`flag call ${callId} urgent`, async () => await db.update(calls).set({ urgency: 'urgent', urgencyReason: reason }).where(eq(calls.id, callId)));
    },
    markAgentBusy: async (callId) => {
      await write(`tag call ${callId} as turned away for capacity`, async () => await db.update(calls).set({ agentBusy: true }).where(eq(calls.id, callId)));
    },
    markAgentStalled: async (callId) => {
      await db.update(calls).set({ agentStalled: true }).where(eq(calls.id, callId));
    },
    setCallerLanguage: async (callId, language, voice) => {
      await write(`record the language of call ${callId}`, async () =>
        await db.update(calls).set({ callerLanguage: language, callerVoice: voice }).where(eq(calls.id, callId)),
      );
    },
    recordUnansweredQuestion: async (q) => {
      await write(`record an unanswered question of call ${q.callId ?? '-'}`, () => recordUnansweredQuestion(db, q));
    },
    recordingStored: async (callId, fileName) => {
      await write('recording retry: name the file', async () =>
        await db.update(calls).set({ recordingFile: fileName }).where(and(eq(calls.id, callId), isNull(calls.recordingFile))),
      );
    },
    recordingHeldNoMessage: async (callId) => {
      await write('recording retry: mark missed', async () => await db.update(calls).set({ status: 'missed' }).where(eq(calls.id, callId)));
    },
    pendingJobs: async () => (await db.select({ n: count() }).from(jobs).where(eq(jobs.status, 'pending')))[0]?.n ?? 0,
    recordingJobs({ run, backoff, pollMs }) {
      // This node's kind only: the recording is on this node's Asterisk, out of other cores' reach.
      const kind = storeRecordingKind(node);
      const queue = new JobQueue(db, () => new Date(), { leaseMs: 5 * 60_000, backoff, kinds: [kind] });
      const worker = new JobWorker({ queue, handlers: { [kind]: (job) => run(job) }, log, pollMs });
      return {
        queue: (payload, { runAt, maxAttempts }) =>
          write('queue a recording retry', () => queue.enqueue(kind, storeRecordingKey(payload.callId), { ...payload }, { runAt, maxAttempts })),
        start: () => worker.start(),
        kick: () => worker.kick(),
        stop: () => worker.stop(),
      };
    },
  };
}
