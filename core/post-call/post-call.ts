import path from 'node:path';
import { decideLanguage, DEFAULT_LANGUAGE_POLICY } from '../../dialogue/language/detection.js';
import { parseAllowList, spokenLanguage, toLanguageCode } from '../../dialogue/language/languages.js';
import { translateTranscript } from '../../dialogue/language/translate.js';
import { eq } from 'drizzle-orm';
import { LanguageModelError, type LanguageModel } from '../../models/llm/language-model.js';
import { summarise } from '../../dialogue/summary/summarise.js';
import { classifyCall, isScreenedClass, ruleClass, type CallClass } from '../../dialogue/summary/call-class.js';
import type { SpeechToText } from '../../models/stt/speech-to-text.js';
import type { Db } from '../db/client.js';
import { tablesOf, type Call, type User } from '../db/schema.js';
import { notificationBody, repeatCallerBody } from '../notify/message.js';
import { bookedByCall } from '../booking/store/bookings.js';
import type { CallNotifier } from '../notify/notifier.js';
import { claimRepeatAlert, type RepeatCallerRule } from '../notify/repeat-caller.js';
import { storeRecordingKey } from '../jobs/recording-jobs.js';
import { errorMessage, isRetryable, RetryableError } from '../jobs/retryable.js';
import type { Log } from '../../contract/log.js';
import type { JobHandler } from '../jobs/worker.js';

export const POST_CALL_JOB = 'post-call';
export const postCallKey = (callId: number) => `post-call:${callId}`;

/** Stored as the summary of a recording Whisper found no words in; no model call needed. */
const NO_SPEECH_SUMMARY = 'The caller left a recording with no speech.';

export interface PostCallDeps {
  db: Db;
  stt: SpeechToText;
  llm: LanguageModel;
  notifier: CallNotifier;
  recordingsDir: string;
  log: Log;
  /**
   * From this attempt on, a still-failing engine no longer holds the text back: the owner
   * is told now (with the transcript, or a note that the summary follows) and the job keeps
   * retrying the engines to fill the call log in, without texting again.
   */
  notifyAnywayFromAttempt: number;
  /** When a caller ringing again and again gets the owner a one-off alert. */
  repeatCaller: RepeatCallerRule;
  /**
   * The call is finished for good: its summary is stored, or will never be (no message, an
   * engine gave up). Called on every run from then on; the listener must be idempotent.
   */
  callSettled?: (call: Call) => void;
}

/** What the call's class stores: the class, and that it was screened when it is not genuine. */
function classified(c: CallClass): Pick<Call, 'callClass' | 'screenedBy'> {
  return { callClass: c, screenedBy: isScreenedClass(c) ? 'summary' : null };
}

/** A call has a message to transcribe when it was recorded and not missed. */
function hasMessage(c: Call): boolean {
  return !!c.recordingFile && c.status !== 'missed';
}

/** The call's recording is still on Asterisk, waiting for the PBX to store it (disk was full). */
async function recordingAwaited(db: Db, c: Call): Promise<boolean> {
  const { jobs } = tablesOf(db);
  // An agent call's dialogue is already transcribed: its summary does not need the recording.
  if (c.recordingFile || c.status === 'missed' || c.transcriptionStatus === 'done') return false;
  const job = (await db.select({ status: jobs.status }).from(jobs).where(eq(jobs.key, storeRecordingKey(c.id))).limit(1))[0];
  return job?.status === 'pending' || job?.status === 'running';
}

/** The recording is here but its transcript or summary is not (it arrived after the job finished). */
export async function postCallWorkLeft(db: Db, callId: number): Promise<boolean> {
  const { calls } = tablesOf(db);
  const c = (await db.select().from(calls).where(eq(calls.id, callId)).limit(1))[0];
  if (!c || !hasMessage(c)) return false;
  const open = (s: Call['transcriptionStatus']) => s === 'none' || s === 'pending';
  return open(c.transcriptionStatus) || open(c.summaryStatus);
}

/** Thrown (retryable) while a call's recording has not reached the recordings folder yet. */
class RecordingNotStoredYet extends RetryableError {
  constructor(message: string) {
    super(message, true);
  }
}

/**
 * One attempt at a call's post-call job: the call as stored (loaded once, then kept in step
 * with what the steps save), its owner, and the one retry state every step reads and adds to.
 */
export interface Attempt {
  readonly callId: number;
  call: Call;
  readonly owner: User;
  /** This run's number (1 = first) and whether the queue gives up after it. */
  readonly number: number;
  readonly last: boolean;
  readonly signal: AbortSignal;
  /** What may work on a later attempt (an engine that is down, a recording not stored yet): the first is rethrown. */
  readonly waiting: unknown[];
  /** The repeat-caller alert's failure: retried with the job, without holding the summary back. */
  alertFailed: unknown;
  /** The translation's failure (issue 42): retried with the job, after the owner's text. */
  translationFailed: unknown;
}

/** A named step of the job: reads and updates the attempt; a thrown error ends the attempt. */
export type PostCallStep = (deps: PostCallDeps, a: Attempt) => Promise<void>;

/** Stores `set` on the call row and keeps the attempt's copy of the row the same. */
async function save(deps: PostCallDeps, a: Attempt, set: Partial<Call>): Promise<void> {
  const { calls } = tablesOf(deps.db);
  await deps.db.update(calls).set(set).where(eq(calls.id, a.callId));
  a.call = { ...a.call, ...set };
}

async function loadCall(db: Db, id: number): Promise<Call | undefined> {
  const { calls } = tablesOf(db);
  return (await db.select().from(calls).where(eq(calls.id, id)).limit(1))[0];
}

/** A retryable failure waits for the next attempt, unless this is the last one; any other failure is final. */
async function engineFailed(deps: PostCallDeps, a: Attempt, step: 'transcriptionStatus' | 'summaryStatus', err: unknown): Promise<void> {
  if (a.signal.aborted) throw err;
  const final = !isRetryable(err) || a.last;
  deps.log.warn({ callId: a.callId, step, attempt: a.number, final, err: errorMessage(err) }, 'post-call step failed');
  if (final) await save(deps, a, { [step]: 'failed' });
  if (isRetryable(err)) a.waiting.push(err);
}

/**
 * First, before any engine: a caller ringing again and again cannot wait for a summary.
 * A provider failure here must not hold the summary back: it is retried with the job.
 */
const repeatCallerAlert: PostCallStep = async (deps, a) => {
  if (!(await claimRepeatAlert(deps.db, a.call, deps.repeatCaller))) return;
  const body = repeatCallerBody(a.call.fromNumber, deps.repeatCaller.calls, deps.repeatCaller.windowMinutes, a.call.createdAt);
  try {
    await deps.notifier.notify(a.call, a.owner, body, 'repeat-caller');
  } catch (err) {
    if (a.signal.aborted) throw err;
    deps.log.warn({ callId: a.callId, attempt: a.number, err: errorMessage(err) }, 'repeat-caller alert failed');
    a.alertFailed = err;
  }
  // The claim and the notifier wrote to the row (the alert's flag, a delivery problem).
  a.call = (await loadCall(deps.db, a.callId))!;
};

/**
 * The message is still on Asterisk (the recordings disk was full): wait for it like for an
 * engine, so the owner gets the summary in the one text when it arrives in time.
 */
const awaitRecording: PostCallStep = async (deps, a) => {
  if (await recordingAwaited(deps.db, a.call)) a.waiting.push(new RecordingNotStoredYet(`call ${a.callId}: the recording is not stored yet`));
};

const transcribe: PostCallStep = async (deps, a) => {
  const { call, owner } = a;
  if (!hasMessage(call) || !(call.transcriptionStatus === 'none' || call.transcriptionStatus === 'pending')) return;
  try {
    // A message in another language the owner allows is transcribed in it and named (issue 42).
    const allowed = parseAllowList(owner.agentLanguages);
    const heard = await deps.stt.transcribe(path.join(deps.recordingsDir, call.recordingFile!), { signal: a.signal, language: allowed.length > 1 ? 'auto' : undefined });
    const lang = decideLanguage('en', heard.text, { language: heard.language, probability: heard.languageProbability }, { ...DEFAULT_LANGUAGE_POLICY, allowed });
    await save(deps, a, { transcription: heard.text, transcriptionStatus: 'done', ...(lang.changed ? { callerLanguage: lang.language } : {}) });
  } catch (err) {
    await engineFailed(deps, a, 'transcriptionStatus', err);
  }
};

/**
 * The summary's urgency: a call the live flow flagged urgent (the caller said so, a gas leak)
 * stays urgent, with the flow's reason, whatever the model says.
 */
export function mergeUrgency(call: Pick<Call, 'urgency' | 'urgencyReason'>, reply: Pick<Call, 'urgency' | 'urgencyReason'>): Pick<Call, 'urgency' | 'urgencyReason'> {
  const flagged = call.urgency === 'urgent' && reply.urgency !== 'urgent';
  return flagged ? { urgency: 'urgent', urgencyReason: call.urgencyReason } : { urgency: reply.urgency, urgencyReason: reply.urgencyReason };
}

const summariseCall: PostCallStep = async (deps, a) => {
  const summaryOpen = a.call.summaryStatus === 'none' || a.call.summaryStatus === 'pending';
  if (!summaryOpen) return;
  // An agent call's dialogue is transcribed by the flow itself: it is summarised even while
  // its recording is missing (disk full when the call ended), so the owner's text has it.
  const hasTranscript = a.call.transcriptionStatus === 'done' && a.call.status !== 'missed' && (hasMessage(a.call) || !!a.call.transcription?.trim());
  if (!hasTranscript) {
    if (a.call.transcriptionStatus === 'failed') await save(deps, a, { summaryStatus: 'failed' }); // nothing to summarise, ever
    return;
  }
  const transcript = a.call.transcription?.trim() ?? '';
  try {
    // The rules' verdict (no speech, a recorded message's opening) stands whatever the model
    // says, and is stored before asking it: a model that is down cannot get a robocall texted.
    const ruled = a.call.urgency === 'urgent' ? null : ruleClass(transcript);
    if (ruled && a.call.callClass !== ruled) await save(deps, a, classified(ruled));
    if (!transcript) {
      await save(deps, a, { aiSummary: NO_SPEECH_SUMMARY, summaryStatus: 'done' });
      return;
    }
    const { call, owner } = a;
    const reply = await summarise(
      deps.llm,
      { transcript, callerNumber: call.fromNumber, businessName: owner.businessName, mode: call.mode === 'agent' ? 'agent' : 'voicemail', callerLanguage: spokenLanguage(call.callerLanguage) },
      a.signal,
    );
    // A reply that fails the check is not retried: the same transcript tends to give the same answer.
    if (!reply.ok) throw new LanguageModelError(`summary rejected: ${reply.reason}`, false);
    const urgency = mergeUrgency(call, reply);
    const callClass = classifyCall({ transcript, modelClass: reply.callClass, urgent: urgency.urgency === 'urgent' });
    // wantsBooking: Call Details offers the owner "Book this caller" (issue 41, item 8).
    await save(deps, a, { aiSummary: reply.text, summaryStatus: 'done', wantsBooking: reply.wantsBooking, ...urgency, ...classified(callClass) });
  } catch (err) {
    await engineFailed(deps, a, 'summaryStatus', err);
  }
};

/** The owner's text about a call: its summary, and in agent mode the booking it made. */
async function summaryText(db: Db, call: Call): Promise<string> {
  return notificationBody({ ...call, booked: call.mode === 'agent' ? await bookedByCall(db, call.id) : null });
}

/**
 * Sends a call's summary texts again once the owner's wait for a push to be opened is over
 * (core/push): the notifier sends only what has not gone, and asks push alerts again whether to.
 */
export async function textSummaryNow(db: Db, notifier: CallNotifier, callId: number): Promise<void> {
  const { users } = tablesOf(db);
  const call = await loadCall(db, callId);
  if (!call || neverTexted(call) || call.screenedBy) return;
  const owner = (await db.select().from(users).where(eq(users.id, call.userId)).limit(1))[0];
  if (owner) await notifier.notify(call, owner, await summaryText(db, call));
}

/**
 * Texts the owner when nothing is waiting (or waiting no longer holds the text back), then
 * settles the call once nothing will change it any more.
 */
export const notifyAndSettle: PostCallStep = async (deps, a) => {
  const { call } = a;
  try {
    // A screened call is kept for the owner to open, never texted to them.
    if (call.screenedBy) deps.log.info({ callId: a.callId, callClass: call.callClass }, 'screened: not texting the owner');
    // A VIP's call is texted at once, without waiting for engines that are down.
    else if (a.waiting.length === 0 || call.callerTag === 'vip' || a.number >= deps.notifyAnywayFromAttempt || a.last) {
      await deps.notifier.notify(call, a.owner, await summaryText(deps.db, call));
    }
  } finally {
    // A text the provider refused for now must not hold back the owner's other tools.
    if (a.waiting.length === 0 || a.last) deps.callSettled?.(a.call);
  }
};

/**
 * Call Details' English beside the original (issue 42), stored once, after the owner's text,
 * which never waits for it. A failure the job can retry is retried; on the last attempt, or one
 * that cannot help, Call Details shows the original alone.
 */
const translateForOwner: PostCallStep = async (deps, a) => {
  const { call } = a;
  const language = toLanguageCode(call.callerLanguage ?? undefined);
  const transcript = call.transcription?.trim();
  if (!language || language === 'en' || !transcript || call.transcriptionStatus !== 'done' || call.transcriptEnglish) return;
  try {
    await save(deps, a, { transcriptEnglish: await translateTranscript(deps.llm, transcript, language, a.signal) });
  } catch (err) {
    if (a.signal.aborted) throw err;
    const retry = isRetryable(err) && !a.last;
    deps.log.warn({ callId: a.callId, step: 'translation', final: !retry, err: errorMessage(err) }, 'post-call step failed');
    if (retry) a.translationFailed = err;
  }
};

/**
 * The job's steps in order. A step that needs an engine stores its result on the call row as
 * soon as it has it and is skipped when that result is already there, so a retry or a
 * restart repeats only the work that did not finish. A new step goes in its place here.
 */
const STEPS: readonly PostCallStep[] = [repeatCallerAlert, awaitRecording, transcribe, summariseCall, notifyAndSettle, translateForOwner];

/** A call the owner will never be told about: turned away by their own rules or screened before answering. */
function neverTexted(call: Call): boolean {
  // Turned away by the owner's own rules (block list, withheld refused), or screened before
  // answering (the owner's spam list, the box-wide list): logged, never texted.
  return call.callerTag === 'blocked' || call.callerTag === 'withheld-refused' || call.screenedBy === 'owner' || call.screenedBy === 'box';
}

/** The post-call job: transcribe → summarise → notify, as the named steps above. */
export function postCallHandler(deps: PostCallDeps): JobHandler {
  const { db } = deps;
  const { users } = tablesOf(db);
  return async (job, { signal }) => {
    const callId = Number(job.payload.callId);
    const call = await loadCall(db, callId);
    if (!call) return; // deleted with its owner: nothing left to do
    const owner = (await db.select().from(users).where(eq(users.id, call.userId)).limit(1))[0];
    if (!owner || neverTexted(call)) return;
    const a: Attempt = { callId, call, owner, number: job.attempt, last: job.attempt >= job.maxAttempts, signal, waiting: [], alertFailed: null, translationFailed: null };
    for (const step of STEPS) await step(deps, a);
    if (a.waiting.length) throw a.waiting[0];
    if (a.alertFailed) throw a.alertFailed;
    if (a.translationFailed) throw a.translationFailed;
  };
}

/** Marks what the job will fill in, so the console can show "processing" meanwhile. */
export async function markPostCallPending(db: Db, callId: number): Promise<void> {
  const { calls } = tablesOf(db);
  const call = (await db.select().from(calls).where(eq(calls.id, callId)).limit(1))[0];
  if (!call || !hasMessage(call)) return;
  const set: Partial<Call> = {};
  if (call.transcriptionStatus === 'none') set.transcriptionStatus = 'pending';
  if (call.summaryStatus === 'none') set.summaryStatus = 'pending';
  if (Object.keys(set).length) await db.update(calls).set(set).where(eq(calls.id, callId));
}
