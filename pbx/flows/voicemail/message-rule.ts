import { parseWavHeader } from '../../../models/audio/wav-header.js';
import type { RecordingSnapshot } from '../../ari/types.js';

/**
 * Whether a finished recording holds a message (status voicemail) or nothing (missed),
 * from what Asterisk reports. Asterisk counts whole seconds and rounds up: a silent caller
 * stopped by the silence limit leaves a 0.2 s file reported as `duration 1,
 * talking_duration 1` (seen on Asterisk 20.17), so one second of "talking" cannot tell
 * silence from a short "call me back". Two seconds or more is a message; zero is none;
 * anything in between is "unknown" and the stored audio decides (audioHoldsMessage). A
 * canceled or failed recording is no message; events lost (a stand-in after a reconnect)
 * are "unknown" too.
 */
export function recordingHasMessage(rec: Pick<RecordingSnapshot, 'state' | 'duration' | 'talking_duration'>): 'yes' | 'no' | 'unknown' {
  if (rec.state !== 'done') return 'no';
  const seconds = rec.talking_duration ?? rec.duration;
  if (seconds === undefined) return 'unknown';
  if (seconds >= 2) return 'yes';
  return seconds === 0 ? 'no' : 'unknown';
}

/** A message lasts at least this long… */
const MIN_MESSAGE_MS = 1000;
/** …and this much of it is louder than a quiet line. */
const MIN_SPOKEN_MS = 300;
/** RMS of a 20 ms frame above which it is sound, not line noise (16-bit samples). */
const SPOKEN_LEVEL = 200;

/** The stored recording decides an "unknown": long enough, and with enough sound in it. */
export function audioHoldsMessage(wav: Buffer): boolean {
  let info;
  try {
    info = parseWavHeader(wav, wav.length);
  } catch {
    return false;
  }
  if (info.durationMs < MIN_MESSAGE_MS || info.bitsPerSample !== 16) return false;
  const frame = Math.max(1, Math.round(info.sampleRate / 50)) * info.channels;
  const samples = Math.floor(info.dataBytes / 2);
  let spoken = 0;
  for (let start = 0; start + frame <= samples; start += frame) {
    let sum = 0;
    for (let i = 0; i < frame; i++) {
      const v = wav.readInt16LE(info.dataOffset + (start + i) * 2);
      sum += v * v;
    }
    if (Math.sqrt(sum / frame) > SPOKEN_LEVEL) spoken += 20;
  }
  return spoken >= MIN_SPOKEN_MS;
}
