import { parseWavHeader } from '../../../models/audio/wav-header.js';
import type { RecordingSnapshot } from '../../ari/types.js';

/**
 * Whether a finished recording holds a message (status voicemail) or nothing (missed),
 * from what Asterisk reports. Asterisk's figures are whole seconds: the file's length rounded
 * down, less every run of silence its detector found (each rounded down after 200 ms is
 * taken off), so they are coarse both ways. A silent caller stopped by the silence limit
 * leaves a 0.2 s file reported as `duration 1, talking_duration 1` (seen on Asterisk 20.17),
 * and a caller who spoke for a second and a half, with pauses between words, was reported as
 * `duration 1, talking 0, silence 1` (issue 47's knee bench; filed as missed on this figure
 * alone). So only two seconds or more of talking settles it as a message; under two, or
 * nothing reported, is "unknown" and the stored audio decides (audioHoldsMessage). A canceled
 * or failed recording is no message; events lost (a stand-in after a reconnect) are "unknown" too.
 */
export function recordingHasMessage(rec: Pick<RecordingSnapshot, 'state' | 'duration' | 'talking_duration'>): 'yes' | 'no' | 'unknown' {
  if (rec.state !== 'done') return 'no';
  const seconds = rec.talking_duration ?? rec.duration;
  return seconds !== undefined && seconds >= 2 ? 'yes' : 'unknown';
}

/**
 * How much of the stored audio must be louder than a quiet line to be a message. Only the
 * sound counts, not the file's length: Asterisk keeps the speech and 200 ms of the silence
 * after it, so a caller who spoke half a second after the beep (having talked over the
 * greeting) leaves a file under a second that holds their words; a silent caller's 0.2 s
 * file, or a long quiet line, holds none.
 */
const MIN_SPOKEN_MS = 300;
/** RMS of a 20 ms frame above which it is sound, not line noise (16-bit samples). */
const SPOKEN_LEVEL = 200;

/** The stored recording decides an "unknown": enough sound in it (MIN_SPOKEN_MS). */
export function audioHoldsMessage(wav: Buffer): boolean {
  let info;
  try {
    info = parseWavHeader(wav, wav.length);
  } catch {
    return false;
  }
  if (info.bitsPerSample !== 16) return false;
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
