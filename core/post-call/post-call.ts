import path from 'node:path';
import { decideLanguage, DEFAULT_LANGUAGE_POLICY } from '../../dialogue/language/detection.js';
import { parseAllowList, spokenLanguage, toLanguageCode } from '../../dialogue/language/languages.js';
import { translateTranscript } from '../../dialogue/language/translate.js';
import { eq } from 'drizzle-orm';
import { LanguageModelError, type LanguageModel } from '../../models/llm/language-model.js';
import { summarise } from '../../dialogue/summary/summarise.js';
import { classifyCall, isScreenedClass, NUISANCE_CLASSES as NUISANCE, ruleClass, type CallClass } from '../../dialogue/summary/call-class.js';
import type { SpeechToText } from '../../models/stt/speech-to-text.js';
import type { Db } from '../db/client.js';
import { calls, jobs, users, type Call } from '../db/schema.js';
import { notificationBody, repeatCallerBody } from '../notify/message.js';
import { bookedByCall } from '../booking/store.js';
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
  /** A call was classified a nuisance (sales, recorded, silent): the box-wide list counts it (core/screening). */
  nuisanceClassified?: (call: Call) => Promise<void>;
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
  // An agent call's dialogue is already transcribed: its summary does not need the recording.
  if (c.recordingFile || c.status === 'missed' || c.transcriptionStatus === 'done') return false;
  const job = (await db.select({ status: jobs.status }).from(jobs).where(eq(jobs.key, storeRecordingKey(c.id))).limit(1))[0];
  return job?.status === 'pending' || job?.status === 'running';
}

/** The recording is here but its transcript or summary is not (it arrived after the job finished). */
export async function postCallWorkLeft(db: Db, callId: number): Promise<boolean> {
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
 * The post-call job: transcribe → summarise → notify. Each step stores its result on the
 * call row as soon as it has it and is skipped when that result is already there, so a
 * retry or a restart repeats only the work that did not finish.
 */
export function postCallHandler(deps: PostCallDeps): JobHandler {
  const { db, log } = deps;
  const load = async (id: number) => (await db.select().from(calls).where(eq(calls.id, id)).limit(1))[0];
  const save = async (id: number, set: Partial<Call>) => await db.update(calls).set(set).where(eq(calls.id, id));

  return async (job, { signal }) => {
    const callId = Number(job.payload.callId);
    const lastAttempt = job.attempt >= job.maxAttempts;
    let call = await load(callId);
    if (!call) return; // deleted with its owner: nothing left to do
    const owner = (await db.select().from(users).where(eq(users.id, call.userId)).limit(1))[0];
    if (!owner) return;
    // Turned away by the owner's own rules (block list, withheld refused): logged, never texted.
    if (call.callerTag === 'blocked' || call.callerTag === 'withheld-refused') return;
    // Screened before answering (the owner's spam list, the box-wide list): logged, never texted.
    if (call.screenedBy === 'owner' || call.screenedBy === 'box') return;
    const waiting: unknown[] = []; // engines that may work later
    // First, before any engine: a caller ringing again and again cannot wait for a summary.
    // A provider failure here must not hold the summary back: it is retried with the job.
    let alertFailed: unknown = null;
    if (await claimRepeatAlert(db, call, deps.repeatCaller)) {
      const body = repeatCallerBody(call.fromNumber, deps.repeatCaller.calls, deps.repeatCaller.windowMinutes, call.createdAt);
      try {
        await deps.notifier.notify(call, owner, body, 'repeat-caller');
      } catch (err) {
        if (signal.aborted) throw err;
        log.warn({ callId, attempt: job.attempt, err: errorMessage(err) }, 'repeat-caller alert failed');
        alertFailed = err;
      }
      call = (await load(callId))!;
    }
    // The message is still on Asterisk (the recordings disk was full): wait for it like for
    // an engine, so the owner gets the summary in the one text when it arrives in time.
    if (await recordingAwaited(db, call)) waiting.push(new RecordingNotStoredYet(`call ${callId}: the recording is not stored yet`));

    /** A retryable failure waits for the next attempt, unless this is the last one; any other failure is final. */
    const engineFailed = async (step: 'transcriptionStatus' | 'summaryStatus', err: unknown) => {
      if (signal.aborted) throw err;
      const final = !isRetryable(err) || lastAttempt;
      log.warn({ callId, step, attempt: job.attempt, final, err: errorMessage(err) }, 'post-call step failed');
      if (final) await save(callId, { [step]: 'failed' });
      if (isRetryable(err)) waiting.push(err);
    };

    if (hasMessage(call) && (call.transcriptionStatus === 'none' || call.transcriptionStatus === 'pending')) {
      try {
        // A message in another language the owner allows is transcribed in it and named (issue 42).
        const allowed = parseAllowList(owner.agentLanguages);
        const heard = await deps.stt.transcribe(path.join(deps.recordingsDir, call.recordingFile!), { signal, language: allowed.length > 1 ? 'auto' : undefined });
        const lang = decideLanguage('en', heard.text, { language: heard.language, probability: heard.languageProbability }, { ...DEFAULT_LANGUAGE_POLICY, allowed });
        await save(callId, { transcription: heard.text, transcriptionStatus: 'done', ...(lang.changed ? { callerLanguage: lang.language } : {}) });
      } catch (err) {
        await engineFailed('transcriptionStatus', err);
      }
      call = (await load(callId))!;
    }

    const summaryOpen = call.summaryStatus === 'none' || call.summaryStatus === 'pending';
    // An agent call's dialogue is transcribed by the flow itself: it is summarised even while
    // its recording is missing (disk full when the call ended), so the owner's text has it.
    const hasTranscript = call.transcriptionStatus === 'done' && call.status !== 'missed' && (hasMessage(call) || !!call.transcription?.trim());
    if (hasTranscript && summaryOpen) {
      const transcript = call.transcription?.trim() ?? '';
      try {
        // The rules' verdict (no speech, a recorded message's opening) stands whatever the model
        // says, and is stored before asking it: a model that is down cannot get a robocall texted.
        const ruled = call.urgency === 'urgent' ? null : ruleClass(transcript);
        if (ruled && call.callClass !== ruled) {
          await save(callId, classified(ruled));
          call = (await load(callId))!;
        }
        if (!transcript) {
          await save(callId, { aiSummary: NO_SPEECH_SUMMARY, summaryStatus: 'done' });
        } else {
          const reply = await summarise(
            deps.llm,
            { transcript, callerNumber: call.fromNumber, businessName: owner.businessName, mode: call.mode === 'agent' ? 'agent' : 'voicemail', callerLanguage: spokenLanguage(call.callerLanguage) },
            signal,
          );
          // A reply that fails the check is not retried: the same transcript tends to give the same answer.
          if (!reply.ok) throw new LanguageModelError(`summary rejected: ${reply.reason}`, false);
          // A call the live flow flagged urgent (the caller said so, a gas leak) stays urgent.
          const flagged = call.urgency === 'urgent' && reply.urgency !== 'urgent';
          const urgency = flagged ? 'urgent' : reply.urgency;
          const callClass = classifyCall({ transcript, modelClass: reply.callClass, urgent: urgency === 'urgent' });
          await save(callId, { aiSummary: reply.text, summaryStatus: 'done', urgency, urgencyReason: flagged ? call.urgencyReason : reply.urgencyReason, ...classified(callClass) });
        }
      } catch (err) {
        await engineFailed('summaryStatus', err);
      }
      call = (await load(callId))!;
    } else if (summaryOpen && call.transcriptionStatus === 'failed') {
      await save(callId, { summaryStatus: 'failed' }); // nothing to summarise, ever
      call = (await load(callId))!;
    }

    // A nuisance call counts towards the box-wide list once it is classified (idempotent: a
    // business counts once per number however often this runs).
    if (call.screenedBy === 'summary' && call.callClass && NUISANCE.includes(call.callClass)) await deps.nuisanceClassified?.(call);
    try {
      // A screened call is kept for the owner to open, never texted to them.
      if (call.screenedBy) log.info({ callId, callClass: call.callClass }, 'screened: not texting the owner');
      // A VIP's call is texted at once, without waiting for engines that are down.
      else if (waiting.length === 0 || call.callerTag === 'vip' || job.attempt >= deps.notifyAnywayFromAttempt || lastAttempt) {
        await deps.notifier.notify(call, owner, notificationBody({ ...call, booked: call.mode === 'agent' ? await bookedByCall(db, call.id) : null }));
      }
    } finally {
      // A text the provider refused for now must not hold back the owner's other tools.
      if (waiting.length === 0 || lastAttempt) deps.callSettled?.(call);
    }
    // Call Details' English beside the original: after the owner's text, which never waits for it.
    const translationFailed = await translateForOwner(deps, call, lastAttempt, signal);
    if (waiting.length) throw waiting[0];
    if (alertFailed) throw alertFailed;
    if (translationFailed) throw translationFailed;
  };
}

/**
 * Stores the English of a call in another language (issue 42), once. A failure the job can
 * retry is handed back to be thrown; on the last attempt, or one that cannot help, Call
 * Details shows the original alone.
 */
async function translateForOwner(deps: PostCallDeps, call: Call, lastAttempt: boolean, signal: AbortSignal): Promise<unknown> {
  const language = toLanguageCode(call.callerLanguage ?? undefined);
  const transcript = call.transcription?.trim();
  if (!language || language === 'en' || !transcript || call.transcriptionStatus !== 'done' || call.transcriptEnglish) return null;
  try {
    const english = await translateTranscript(deps.llm, transcript, language, signal);
    await deps.db.update(calls).set({ transcriptEnglish: english }).where(eq(calls.id, call.id));
    return null;
  } catch (err) {
    if (signal.aborted) throw err;
    const retry = isRetryable(err) && !lastAttempt;
    deps.log.warn({ callId: call.id, step: 'translation', final: !retry, err: errorMessage(err) }, 'post-call step failed');
    return retry ? err : null;
  }
}

/** Marks what the job will fill in, so the console can show "processing" meanwhile. */
export async function markPostCallPending(db: Db, callId: number): Promise<void> {
  const call = (await db.select().from(calls).where(eq(calls.id, callId)).limit(1))[0];
  if (!call || !hasMessage(call)) return;
  const set: Partial<Call> = {};
  if (call.transcriptionStatus === 'none') set.transcriptionStatus = 'pending';
  if (call.summaryStatus === 'none') set.summaryStatus = 'pending';
  if (Object.keys(set).length) await db.update(calls).set(set).where(eq(calls.id, callId));
}
