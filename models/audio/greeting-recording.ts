import { createHash } from 'node:crypto';
import path from 'node:path';
import { buildWavHeader, parseWavHeader, WavFormatError } from './wav-header.js';
import { resample } from './resample.js';

// An owner's own recording of a greeting line (issue 42): the WAV the console sends, checked
// and converted in memory to what prompts are stored as (8 kHz mono 16-bit PCM, the format
// Asterisk and the agent's media both take without transcoding) before anything is written.

/** Longest recording accepted: a greeting line, not a message. */
const GREETING_RECORDING_MAX_SECONDS = 30;
/** 30 s of the largest WAV accepted (48 kHz stereo 16-bit) is 5.5 MiB; the rest is headroom for header chunks. */
export const GREETING_RECORDING_MAX_BYTES = 6 * 1024 * 1024;
const MIN_RATE = 8000;
const MAX_RATE = 48000;
/**
 * A recording whose loudest 20 ms frame is quieter than this RMS (about -44 dBFS) holds no
 * speech: a muted microphone or a denied permission gives such a file, and callers would hear
 * nothing where the greeting should be.
 */
const SILENT_FRAME_RMS = 200;

/**
 * The voicemail greeting's place in users.greeting_recordings (issue 57): one recording per
 * owner, kept beside the agent's per-language lines under a key no language code can be.
 */
export const VOICEMAIL_GREETING_KEY = 'voicemail';

/** The folder under $DATA_DIR holding each owner's recordings, one sub-folder per owner id. */
const GREETING_RECORDINGS_FOLDER = 'greeting-recordings';

export class GreetingRecordingRefused extends Error {}

/** A checked recording: the telephone-format WAV to store and its name (the content's hash, so a replaced one is never replayed from an old cache). */
export interface PreparedGreetingRecording {
  wav: Buffer;
  fileName: string;
  durationMs: number;
}

const NOT_WAV = 'That file is not a WAV recording: save it as WAV (16-bit PCM) and upload it again, or record again.';
const DAMAGED_WAV = 'That WAV recording is damaged or cut short: save it again as WAV (16-bit PCM) and upload it again, or record again.';

const refuse = (why: string) => new GreetingRecordingRefused(why);

/** Checks `body` is a usable recording and converts it; throws GreetingRecordingRefused with words for the owner otherwise. */
export function prepareGreetingRecording(body: Buffer, language: string): PreparedGreetingRecording {
  if (body.length > GREETING_RECORDING_MAX_BYTES) throw refuse(tooBig());
  let info;
  try {
    info = parseWavHeader(body, body.length);
  } catch (err) {
    // The parser's own words (chunk names, RIFF) mean nothing to an owner: say what to do instead.
    if (err instanceof WavFormatError) throw refuse(err.notWav ? NOT_WAV : DAMAGED_WAV);
    throw err;
  }
  if (info.audioFormat !== 1 || info.bitsPerSample !== 16) throw refuse('The recording must be 16-bit PCM WAV (not compressed or 8/24/32-bit). Save it as 16-bit PCM and upload it again.');
  if (info.channels > 2) throw refuse('The recording must be mono or stereo. Save it with one or two channels and upload it again.');
  // The samples are read a frame (blockAlign bytes) at a time: a header whose block size is not
  // its channels' 2 bytes each would read past the file or between the samples.
  const frameBytes = info.channels * 2;
  if (info.blockAlign !== frameBytes) {
    throw refuse(
      `The recording's header does not add up: it says ${info.channels} channel${info.channels === 1 ? '' : 's'} of 16 bits (${frameBytes} bytes a frame) but a block size of ${info.blockAlign} byte${info.blockAlign === 1 ? '' : 's'}. Save it again as 16-bit PCM WAV and upload it again.`,
    );
  }
  if (info.sampleRate < MIN_RATE || info.sampleRate > MAX_RATE) throw refuse(`The recording's sample rate must be between 8,000 and 48,000 Hz (this one is ${info.sampleRate} Hz).`);
  if (info.durationMs > GREETING_RECORDING_MAX_SECONDS * 1000) throw refuse(`The recording is ${Math.ceil(info.durationMs / 1000)} seconds long; a greeting line may be at most ${GREETING_RECORDING_MAX_SECONDS} seconds.`);
  const frames = info.dataBytes / info.blockAlign;
  if (frames === 0) throw refuse('The recording is empty. Record again and speak the greeting.');
  // Mixed down to mono, then to 8 kHz by the project's one resampler.
  const mono = new Int16Array(frames);
  for (let i = 0; i < frames; i++) {
    const at = info.dataOffset + i * info.blockAlign;
    mono[i] = info.channels === 1 ? body.readInt16LE(at) : (body.readInt16LE(at) + body.readInt16LE(at + 2)) >> 1;
  }
  if (isSilent(mono, info.sampleRate)) throw refuse('The recording is silent. Check the microphone is on and allowed in the browser, then record again.');
  const pcm = resample(mono, info.sampleRate, 8000);
  const data = Buffer.alloc(pcm.length * 2);
  for (let i = 0; i < pcm.length; i++) data.writeInt16LE(pcm[i]!, i * 2);
  const wav = Buffer.concat([buildWavHeader({ sampleRate: 8000, channels: 1, bitsPerSample: 16, dataBytes: data.length }), data]);
  const hash = createHash('sha256').update(wav).digest('hex').slice(0, 20);
  return { wav, fileName: `${language}-${hash}.wav`, durationMs: Math.round((pcm.length * 1000) / 8000) };
}

export const tooBig = () => `The recording is larger than ${GREETING_RECORDING_MAX_BYTES / (1024 * 1024)} MB. A greeting line may be at most ${GREETING_RECORDING_MAX_SECONDS} seconds.`;

function isSilent(pcm: Int16Array, sampleRate: number): boolean {
  const frame = Math.max(1, Math.round(sampleRate / 50));
  for (let start = 0; start < pcm.length; start += frame) {
    const end = Math.min(pcm.length, start + frame);
    let sum = 0;
    for (let i = start; i < end; i++) sum += pcm[i]! * pcm[i]!;
    if (Math.sqrt(sum / (end - start)) >= SILENT_FRAME_RMS) return false;
  }
  return true;
}

/** An owner's folder of recordings (removed with the owner). */
export function greetingRecordingFolder(dataDir: string, userId: number): string {
  return path.join(dataDir, GREETING_RECORDINGS_FOLDER, String(userId));
}

/** Where an owner's stored recording lives; `name` is as stored in users.greeting_recordings (a bare file name, never a path). */
export function greetingRecordingFile(dataDir: string, userId: number, name: string): string {
  return path.join(greetingRecordingFolder(dataDir, userId), path.basename(name));
}

/** The sound Asterisk plays an owner's stored recording `name` as (models/tts/recorded-prompt.ts): per owner and per content. */
export function recordingSoundKey(userId: number, name: string): string {
  return `own-${userId}-${path.basename(name, '.wav')}`;
}
