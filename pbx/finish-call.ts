import fs from 'node:fs/promises';
import path from 'node:path';
import { finishCall } from '../core/calls/call-store.js';
import type { Db } from '../core/db/client.js';
import type { Call } from '../core/db/schema.js';
import { parseWavHeader } from '../models/tts/index.js';
import { AriNotFoundError, type AriRest } from './ari/types.js';
import type { FlowLog, FlowOutcome } from './flows/types.js';
import { MIN_MESSAGE_MS } from './flows/voicemail/message-rule.js';
import { storeRecording } from './recordings/store-recording.js';

export interface FinishDeps {
  db: Db;
  rest: AriRest;
  log: FlowLog;
  recordingsDir: string;
  callFinished: Array<(callId: number) => void>;
}

/**
 * Makes a call row final once the channel is gone: stores the message (if any) first,
 * then writes status, real duration and end time, then tells the post-call pipeline.
 * Whatever fails here, the row is still finished: a lost recording never loses the call.
 */
export async function finaliseCall(
  deps: FinishDeps,
  call: { id: number; startedAt: number; endedAt: number },
  outcome: FlowOutcome,
): Promise<void> {
  let status: Call['status'] = 'missed';
  let recordingFile: string | null = null;
  const name = outcome.recordingName;
  if (name && outcome.message !== 'no') {
    const fileName = `${name}.wav`;
    try {
      const bytes = await storeRecording(deps.rest, name, deps.recordingsDir, fileName);
      const keep = outcome.message === 'yes' || (await lastsAtLeast(path.join(deps.recordingsDir, fileName), MIN_MESSAGE_MS));
      if (keep) {
        status = 'voicemail';
        recordingFile = fileName;
      } else {
        await fs.rm(path.join(deps.recordingsDir, fileName), { force: true });
      }
      deps.log.info({ callId: call.id, bytes, kept: keep }, 'recording fetched from Asterisk');
      await deleteOnAsterisk(deps, name);
    } catch (err) {
      if (err instanceof AriNotFoundError) {
        deps.log.info({ callId: call.id }, 'no recording on Asterisk (caller left before recording began)');
      } else {
        // Left on Asterisk so the operator (or a later reconcile) can still recover it.
        deps.log.error({ err, callId: call.id, recording: name }, 'could not store the recording; it stays on Asterisk');
        if (outcome.message === 'yes') status = 'voicemail';
      }
    }
  } else if (name) {
    await deleteOnAsterisk(deps, name);
  }

  // A conversation (agent mode) is an answered call even if its recording was lost.
  if (outcome.status) status = outcome.status;
  const duration = Math.max(0, Math.round((call.endedAt - call.startedAt) / 1000));
  const changed = finishCall(deps.db, call.id, { status, duration, endedAt: new Date(call.endedAt), recordingFile });
  if (!changed) return; // already final: never announce a call twice
  for (const hook of deps.callFinished) {
    try {
      hook(call.id);
    } catch (err) {
      deps.log.error({ err, callId: call.id }, 'a callFinished hook failed');
    }
  }
}

async function deleteOnAsterisk(deps: FinishDeps, name: string): Promise<void> {
  try {
    await deps.rest.deleteStoredRecording(name);
  } catch (err) {
    if (!(err instanceof AriNotFoundError)) deps.log.warn({ err, recording: name }, 'could not delete the recording on Asterisk');
  }
}

async function lastsAtLeast(file: string, ms: number): Promise<boolean> {
  try {
    const buf = await fs.readFile(file);
    return parseWavHeader(buf, buf.length).durationMs >= ms;
  } catch {
    return false;
  }
}
