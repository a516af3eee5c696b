import { loadCallTeam } from '../team/load-call-team.js';
import { callRoutingFacts } from '../team/routing-facts.js';
import { attributeCall } from './attribute-call.js';
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { decideHandling, loadCallHandling, ownerDid, takesMessageOnly } from '../call-handling/index.js';
import { retryWhileBusy, type Db } from '../db/client.js';
import { preparedPerDb } from '../db/prepared.js';
import { tablesOf, type Call, type User } from '../db/schema.js';
import { JobQueue } from '../jobs/queue.js';
import { storeRecordingKey, storeRecordingKind } from '../jobs/recording-jobs.js';
import { DEFAULT_NODE } from '../config/config.js';
import type { Log } from '../../contract/log.js';
import { JobWorker } from '../jobs/worker.js';
import { createForwardingChecks } from '../forwarding-check/index.js';
import { DEFAULT_OUTBOUND_POLICY, outboundPermitNow, outboundRefusalNow, recordOutboundCall, settleOutboundCall, type OutboundPolicy, type OutboundRefusal } from '../outbound/index.js';
import { recordUnansweredQuestion } from '../questions/repository.js';
import { findCallByChannel, finishCall, openCall, openCalls } from './call-store.js';
import { screenBeforeAnswer } from '../screening/lookup.js';
import type { CallOwner, CallPath } from '../ports/call-path.js';

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

/**
 * The CallPath port's one implementation (core/ports/call-path.ts), over the appliance database:
 * built once by the composition root (root/compose.ts) and handed to startPbx. `node`: this
 * core's NODE_NAME; its calls are tagged with it and only they are reconciled here.
 */
export function createCallPath(db: Db, log: Log, outbound: OutboundPolicy = DEFAULT_OUTBOUND_POLICY, node: string = DEFAULT_NODE, onUrgent?: (callId: number, reason: string) => void): CallPath {
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
      return { decision, transferNumber, ringSeconds: settings.transferTimeoutSeconds, messageOnly: takesMessageOnly(settings, callerNumber) };
    },
    team: (userId, now) => loadCallTeam(db, userId, now),
    routingFacts: (userId, callId, now) => callRoutingFacts(db, userId, callId, now),
    attributeCall: async (callId, staffId, routingNote) => {
      await write(`attribute call ${callId}`, () => attributeCall(db, callId, staffId, routingNote));
    },
    screenBeforeAnswer: (did, callerNumber, now) => screenBeforeAnswer(db, did, callerNumber, now),
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
      onUrgent?.(callId, reason);
    },
    markAgentBusy: async (callId) => {
      await write(`tag call ${callId} as turned away for capacity`, async () => await db.update(calls).set({ agentBusy: true }).where(eq(calls.id, callId)));
    },
    markAgentVoicemail: async (callId, reason) => {
      await write(`tag call ${callId} as answered in voicemail mode (${reason})`, async () => await db.update(calls).set({ agentVoicemailReason: reason }).where(eq(calls.id, callId)));
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
