import type { RecordingSnapshot } from '../../ari/types.js';

/**
 * Whether a finished recording holds a message (status voicemail) or nothing (missed).
 * With maxSilenceSeconds set, Asterisk reports talking_duration (whole seconds of sound):
 * a message is at least 1 s of talking. Without it, at least 1 s of recording. A
 * canceled or failed recording is no message. When the events were lost (stand-in after
 * a reconnect) the answer is "unknown" and the stored file decides.
 */
export function recordingHasMessage(rec: Pick<RecordingSnapshot, 'state' | 'duration' | 'talking_duration'>): 'yes' | 'no' | 'unknown' {
  if (rec.state !== 'done') return 'no';
  if (rec.talking_duration !== undefined) return rec.talking_duration >= 1 ? 'yes' : 'no';
  if (rec.duration !== undefined) return rec.duration >= 1 ? 'yes' : 'no';
  return 'unknown';
}

/** For the "unknown" case: at least one second of audio in the stored file. */
export const MIN_MESSAGE_MS = 1000;
