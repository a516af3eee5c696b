import fs from 'node:fs/promises';
import path from 'node:path';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { connectionOf, retryWhileBusy, type Db } from '../../core/db/client.js';
import { calls, jobs } from '../../core/db/schema.js';
import type { BackoffPolicy } from '../../core/pipeline/backoff.js';
import { JobQueue, type ClaimedJob } from '../../core/pipeline/queue.js';
import { STORE_RECORDING_JOB, storeRecordingKey, type StoreRecordingPayload } from '../../core/pipeline/recording-jobs.js';
import { errorMessage } from '../../core/pipeline/retryable.js';
import { parseWavHeader } from '../../models/tts/index.js';
import { AriNotFoundError, type AriRest } from '../ari/types.js';
import type { FlowLog } from '../flows/types.js';
import { audioHoldsMessage } from '../flows/voicemail/message-rule.js';
import { alreadyStored, storeRecording } from './store-recording.js';

/**
 * Recordings that could not be stored when their call ended (recordings disk full, the
 * fetch refused) are fetched again later: each is a durable `store-recording` job in the
 * jobs table, so a restart resumes them, and the copy on Asterisk is deleted only once the
 * local file exists and the call row names it. Run by the PBX, the only part that can
 * reach Asterisk: after a failure (a timer at the job's next due time) and after every
 * (re)connection (StasisApp.reconcile).
 */
export interface RecordingRetryDeps {
  db: Db;
  rest: AriRest;
  log: FlowLog;
  recordingsDir: string;
  callFinished: Array<(callId: number) => void>;
}

/** 5 s doubling to 10 min: a disk an operator frees within the hour is noticed within minutes. */
export const RECORDING_RETRY_BACKOFF: BackoffPolicy = { baseMs: 5_000, maxMs: 10 * 60_000, jitter: 0.2 };
/** About eight hours of retrying before a recording is left for the operator on Asterisk. */
const MAX_ATTEMPTS = 55;

const settings = { backoff: RECORDING_RETRY_BACKOFF };

/** Tests shorten the back-off; `undefined` restores the default. */
export function useRecordingRetryBackoff(backoff: BackoffPolicy | undefined): void {
  settings.backoff = backoff ?? RECORDING_RETRY_BACKOFF;
}

interface RetryState {
  queue: JobQueue;
  timer?: NodeJS.Timeout;
  running?: Promise<void>;
  again?: boolean;
}

const states = new WeakMap<Db, RetryState>();

function stateFor(db: Db): RetryState {
  let state = states.get(db);
  if (!state) {
    const queue = new JobQueue(connectionOf(db), () => new Date(), {
      leaseMs: 5 * 60_000,
      get backoff() {
        return settings.backoff;
      },
      kinds: [STORE_RECORDING_JOB],
    });
    states.set(db, (state = { queue }));
  }
  return state;
}

/** Records that the call's recording is still to be stored (durable; call before the row is made final). */
export function queueRecordingRetry(deps: RecordingRetryDeps, payload: StoreRecordingPayload & { message?: 'yes' | 'unknown' }): Promise<boolean> {
  const { queue } = stateFor(deps.db);
  return retryWhileBusy(deps.db, 'queue a recording retry', () =>
    queue.enqueue(STORE_RECORDING_JOB, storeRecordingKey(payload.callId), { ...payload }, { runAt: new Date(Date.now() + settings.backoff.baseMs), maxAttempts: MAX_ATTEMPTS }),
  );
}

/** Runs every due recording retry now, then sets a timer for the next one due. Never throws. */
export function retryPendingRecordings(deps: RecordingRetryDeps): Promise<void> {
  const state = stateFor(deps.db);
  if (state.running) {
    state.again = true;
    return state.running;
  }
  state.running = (async () => {
    await Promise.resolve(); // `running` is set before this pass can end and clear it
    try {
      do {
        state.again = false;
        for (let job = claim(deps, state); job; job = claim(deps, state)) await runOne(deps, state.queue, job);
      } while (state.again);
      scheduleNext(deps, state);
    } catch (err) {
      deps.log.error({ err }, 'recording retries: pass failed');
    } finally {
      state.running = undefined;
    }
  })();
  return state.running;
}

function claim(deps: RecordingRetryDeps, state: RetryState): ClaimedJob | null {
  if (!connectionOf(deps.db).open) return null; // stopped
  try {
    return state.queue.claim();
  } catch (err) {
    deps.log.warn({ err }, 'recording retries: cannot claim (database busy?); trying again later');
    return null;
  }
}

function scheduleNext(deps: RecordingRetryDeps, state: RetryState): void {
  if (!connectionOf(deps.db).open) return;
  const next = deps.db
    .select({ at: sql<number | null>`min(${jobs.runAt})` })
    .from(jobs)
    .where(and(eq(jobs.kind, STORE_RECORDING_JOB), eq(jobs.status, 'pending')))
    .get()?.at;
  if (state.timer) clearTimeout(state.timer);
  state.timer = undefined;
  if (next === null || next === undefined) return;
  const at = typeof next === 'number' ? next : new Date(next).getTime();
  state.timer = setTimeout(() => void retryPendingRecordings(deps), Math.max(0, at - Date.now()) + 10);
  state.timer.unref(); // never keeps a stopping process alive: the job is durable
}

async function runOne(deps: RecordingRetryDeps, queue: JobQueue, job: ClaimedJob): Promise<void> {
  const { db, log } = deps;
  const p = job.payload as unknown as StoreRecordingPayload & { message?: 'yes' | 'unknown' };
  const settle = (what: string, write: () => unknown) => retryWhileBusy(db, `recording retry: ${what}`, write, { log });
  const call = db.select().from(calls).where(eq(calls.id, p.callId)).get();
  if (!call || call.recordingFile) return void (await settle('complete', () => queue.complete(job)));

  try {
    await storeRecording(deps.rest, p.name, deps.recordingsDir, p.fileName);
  } catch (err) {
    if (!(err instanceof AriNotFoundError && (await alreadyStored(deps.recordingsDir, p.fileName)))) {
      const retryable = !(err instanceof AriNotFoundError); // gone from Asterisk: nothing left to fetch
      const outcome = await settle('fail', () => queue.fail(job, errorMessage(err), retryable));
      const level = outcome === 'retry' ? 'warn' : 'error';
      log[level]({ callId: p.callId, attempt: job.attempt, outcome, err: errorMessage(err) }, 'recording retry: still cannot store the recording; it stays on Asterisk');
      return;
    }
  }

  const file = path.join(deps.recordingsDir, p.fileName);
  if (p.message === 'unknown' && !(await fileHoldsMessage(file))) {
    // Silence only, as the call's own finisher would have judged it: no message after all.
    await fs.rm(file, { force: true });
    await settle('mark missed', () => db.update(calls).set({ status: 'missed' }).where(eq(calls.id, p.callId)).run());
  } else {
    await settle('name the file', () =>
      db.update(calls).set({ recordingFile: p.fileName }).where(and(eq(calls.id, p.callId), isNull(calls.recordingFile))).run(),
    );
  }
  log.info({ callId: p.callId, attempt: job.attempt }, 'recording retry: recording stored');
  await deleteOnAsterisk(deps, p.name);
  await settle('complete', () => queue.complete(job));
  // The post-call pipeline takes the recording from here (transcript and summary; no second text).
  for (const hook of deps.callFinished) {
    try {
      hook(p.callId);
    } catch (err) {
      log.error({ err, callId: p.callId }, 'a callFinished hook failed');
    }
  }
}

export async function deleteOnAsterisk(deps: { rest: AriRest; log: FlowLog }, name: string): Promise<void> {
  try {
    await deps.rest.deleteStoredRecording(name);
  } catch (err) {
    if (!(err instanceof AriNotFoundError)) deps.log.warn({ err, recording: name }, 'could not delete the recording on Asterisk');
  }
}

/** Whether a stored recording holds a message (message-rule.ts), false when it cannot be read. */
export async function fileHoldsMessage(file: string): Promise<boolean> {
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
