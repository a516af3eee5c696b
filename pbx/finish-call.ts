import fs from 'node:fs/promises';
import path from 'node:path';
import type { Call, CallPath } from '../core/ports/call-path.js';
import { AriNotFoundError, type AriRest } from './ari/types.js';
import type { Log } from '../contract/log.js';
import type { FlowOutcome } from './flows/types.js';
import { audioHoldsMessage } from './flows/voicemail/message-rule.js';
import type { RecordingDisk } from './recordings/disk.js';
import { deleteOnAsterisk, wavDurationOf, type RecordingRetries } from './recordings/recording-retries.js';
import { alreadyStored, storeRecording } from './recordings/store-recording.js';

export interface FinishDeps {
  callPath: CallPath;
  rest: AriRest;
  log: Log;
  recordingsDir: string;
  disk: RecordingDisk;
  callFinished: Array<(callId: number) => void>;
  recordingRetries: RecordingRetries;
}

/**
 * Makes a call row final once the channel is gone: stores the message (if any) first,
 * then writes status, real duration and end time, then tells the post-call pipeline, and
 * only then deletes the recording on Asterisk (until the row names the local file, the
 * copy on Asterisk is what a restart recovers the message from).
 * Whatever fails here, the row is still finished and the message is not lost: a recording
 * that cannot be stored (disk full) stays on Asterisk and is fetched again later; a row
 * write refused because another process holds the database is retried until it lands.
 */
export async function finaliseCall(
  deps: FinishDeps,
  call: { id: number; startedAt: number; endedAt: number },
  outcome: FlowOutcome,
): Promise<void> {
  let status: Call['status'] = 'missed';
  let recordingFile: string | null = null;
  let deleteAfter: string | undefined;
  let retryLater = false;
  let recordingMs = 0;
  const name = outcome.recordingName;
  if (name && outcome.message !== 'no') {
    const fileName = `${name}.wav`;
    try {
      let bytes = 0;
      try {
        bytes = await storeRecording(deps.rest, deps.disk, name, deps.recordingsDir, fileName);
      } catch (err) {
        // Already copied by a run that stopped before writing the row: the local file is the message.
        if (!(err instanceof AriNotFoundError && (await alreadyStored(deps.recordingsDir, fileName)))) throw err;
      }
      const audio = await fs.readFile(path.join(deps.recordingsDir, fileName)).catch(() => Buffer.alloc(0));
      recordingMs = wavDurationOf(audio);
      const keep = outcome.message === 'yes' || audioHoldsMessage(audio);
      if (keep) {
        status = 'voicemail';
        recordingFile = fileName;
      } else {
        await fs.rm(path.join(deps.recordingsDir, fileName), { force: true });
      }
      deps.log.info({ callId: call.id, bytes, kept: keep }, 'recording fetched from Asterisk');
      deleteAfter = name;
    } catch (err) {
      if (err instanceof AriNotFoundError) {
        deps.log.info({ callId: call.id }, 'no recording on Asterisk for this call: nothing was recorded');
      } else {
        // Left on Asterisk and fetched again later; the call may hold a message, so it is not "missed".
        deps.log.error({ err, callId: call.id, recording: name }, 'could not store the recording; it stays on Asterisk and is retried');
        status = 'voicemail';
        try {
          await deps.recordingRetries.queue({ callId: call.id, name, fileName, message: outcome.message === 'yes' ? 'yes' : 'unknown' });
          retryLater = true;
        } catch (queueErr) {
          deps.log.error({ err: queueErr, callId: call.id, recording: name }, 'could not queue the recording retry; the recording stays on Asterisk');
        }
      }
    }
  } else if (name) {
    deleteAfter = name;
  }

  // A conversation (agent mode) is an answered call even if its recording was lost.
  if (outcome.status) status = outcome.status;
  // A call lasts at least as long as its message: the lower bound when its end was never seen
  // (a row finished after a restart has no end time to go by).
  const duration = Math.max(0, Math.round((call.endedAt - call.startedAt) / 1000), recordingFile ? Math.floor(recordingMs / 1000) : 0);
  const changed = await deps.callPath.finishCall(call.id, {
    status,
    duration,
    endedAt: new Date(call.endedAt),
    recordingFile,
    ...(outcome.transfer ? { transferOutcome: outcome.transfer.outcome, transferTalkSeconds: outcome.transfer.talkSeconds } : {}),
  });
  // Never announce a call twice: only the finisher that made the row final tells the pipeline.
  if (changed) {
    for (const hook of deps.callFinished) {
      try {
        hook(call.id);
      } catch (err) {
        deps.log.error({ err, callId: call.id }, 'a callFinished hook failed');
      }
    }
  }
  if (deleteAfter) await deleteOnAsterisk(deps, deleteAfter);
  if (retryLater) deps.recordingRetries.kick();
}
