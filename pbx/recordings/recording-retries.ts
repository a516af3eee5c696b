import fs from 'node:fs/promises';
import path from 'node:path';
import type { CallPath, ClaimedJob, StoreRecordingPayload } from '../../core/ports/call-path.js';
import { errorMessage, RetryableError, type BackoffPolicy } from '../../core/ports/retry.js';
import { parseWavHeader } from '../../models/audio/wav-header.js';
import { AriNotFoundError, type AriRest } from '../ari/types.js';
import type { Log } from '../../contract/log.js';
import { audioHoldsMessage } from '../flows/voicemail/message-rule.js';
import type { RecordingDisk } from './disk.js';
import { alreadyStored, storeRecording } from './store-recording.js';

/**
 * Recordings that could not be stored when their call ended (recordings disk full, the
 * fetch refused) are fetched again later: each is a durable `store-recording` job in the
 * jobs table, run by the PBX's own JobWorker (CallPath.recordingJobs: the PBX is the only
 * part that can reach Asterisk), so a restart resumes them, and the copy on Asterisk is deleted only once the
 * local file exists and the call row names it. The worker starts with the first ARI
 * connection and is kicked after every reconnection (StasisApp.reconcile).
 */
export interface RecordingRetryDeps {
  callPath: CallPath;
  rest: AriRest;
  log: Log;
  recordingsDir: string;
  /** Writes the stored files (disk.ts). */
  disk: RecordingDisk;
  callFinished: Array<(callId: number) => void>;
}

export interface RecordingRetryOptions {
  backoff?: BackoffPolicy;
  /** How often the worker looks for a retry come due (default 1 s). */
  pollMs?: number;
}

export interface RecordingRetries {
  /** Records that the call's recording is still to be stored (durable; call before the row is made final). */
  queue(payload: StoreRecordingPayload & { message?: 'yes' | 'unknown' }): Promise<boolean>;
  /** Starts running due retries (idempotent): once Asterisk is reachable. */
  start(): void;
  /** Runs the due retries now rather than at the next poll. */
  kick(): void;
  stop(): Promise<void>;
}

/** 5 s doubling to 10 min: a disk an operator frees within the hour is noticed within minutes. */
const RECORDING_RETRY_BACKOFF: BackoffPolicy = { baseMs: 5_000, maxMs: 10 * 60_000, jitter: 0.2 };
/** About eight hours of retrying before a recording is left for the operator on Asterisk. */
const MAX_ATTEMPTS = 55;

/** A recording that could not be stored this time; `retryable` tells the queue whether to try again. */
class RecordingNotStored extends RetryableError {}

export function createRecordingRetries(deps: RecordingRetryDeps, opts: RecordingRetryOptions = {}): RecordingRetries {
  const backoff = opts.backoff ?? RECORDING_RETRY_BACKOFF;
  const jobs = deps.callPath.recordingJobs({ run: (job) => storeLater(deps, job), backoff, pollMs: opts.pollMs });
  return {
    queue: (payload) => jobs.queue(payload, { runAt: new Date(Date.now() + backoff.baseMs), maxAttempts: MAX_ATTEMPTS }),
    start: () => jobs.start(),
    kick: () => jobs.kick(),
    stop: () => jobs.stop(),
  };
}

/** One retry: fetch and store the recording, name it on the row, delete it on Asterisk, tell the pipeline. */
async function storeLater(deps: RecordingRetryDeps, job: ClaimedJob): Promise<void> {
  const { callPath, log } = deps;
  const p = job.payload as unknown as StoreRecordingPayload & { message?: 'yes' | 'unknown' };
  const call = await callPath.findCall(p.callId);
  if (!call || call.recordingFile) return;

  try {
    await storeRecording(deps.rest, deps.disk, p.name, deps.recordingsDir, p.fileName);
  } catch (err) {
    if (!(err instanceof AriNotFoundError && (await alreadyStored(deps.recordingsDir, p.fileName)))) {
      // It stays on Asterisk (the worker logs the attempt); gone from Asterisk: nothing left to fetch.
      const gone = err instanceof AriNotFoundError;
      // Asterisk lost the message (it died before writing it): a voicemail nobody can play is a
      // missed call, so the owner is told of the call and the caller stays one to ring back. An
      // agent call keeps its status: its dialogue is its message.
      if (gone && call.status === 'voicemail') {
        log.warn({ callId: p.callId, recording: p.name }, 'recording retry: the message is gone from Asterisk; filed as a missed call');
        await callPath.recordingHeldNoMessage(p.callId);
      }
      throw new RecordingNotStored(errorMessage(err), !gone, { cause: err });
    }
  }

  const file = path.join(deps.recordingsDir, p.fileName);
  if (p.message === 'unknown' && !(await fileHoldsMessage(file))) {
    // Silence only, as the call's own finisher would have judged it: no message after all.
    await fs.rm(file, { force: true });
    await callPath.recordingHeldNoMessage(p.callId);
  } else {
    await callPath.recordingStored(p.callId, p.fileName);
  }
  log.info({ callId: p.callId, attempt: job.attempt }, 'recording retry: recording stored');
  await deleteOnAsterisk(deps, p.name);
  // The post-call pipeline takes the recording from here (transcript and summary; no second text).
  for (const hook of deps.callFinished) {
    try {
      hook(p.callId);
    } catch (err) {
      log.error({ err, callId: p.callId }, 'a callFinished hook failed');
    }
  }
}

export async function deleteOnAsterisk(deps: { rest: AriRest; log: Log }, name: string): Promise<void> {
  try {
    await deps.rest.deleteStoredRecording(name);
  } catch (err) {
    if (!(err instanceof AriNotFoundError)) deps.log.warn({ err, recording: name }, 'could not delete the recording on Asterisk');
  }
}

/** Whether a stored recording holds a message (message-rule.ts), false when it cannot be read. */
async function fileHoldsMessage(file: string): Promise<boolean> {
  try {
    return audioHoldsMessage(await fs.readFile(file));
  } catch {
    return false;
  }
}

/** A recording's length, 0 when it is not a readable WAV. */
export function wavDurationOf(buf: Buffer): number {
  try {
    return parseWavHeader(buf, buf.length).durationMs;
  } catch {
    return 0;
  }
}
