import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { callerSpeech } from '../ari-sim/caller-audio.js';

// Audio helpers for real-PBX tests: the caller's speech as 8 kHz samples, levels per
// 20 ms frame, and an envelope comparison that tells "the same words" from anything else.

export const RATE = 8000;
export const FRAME = 160; // 20 ms at 8 kHz

/** The caller's words spoken by espeak-ng (en-GB), as 8 kHz mono samples. */
export function speech(text: string): Int16Array {
  return readWavSamples(callerSpeech(text));
}

/** Reads a 16-bit mono WAV with sox's help (any header Asterisk or espeak writes). */
export function readWavSamples(file: string): Int16Array {
  const raw = execFileSync('sox', [file, '-t', 'raw', '-r', String(RATE), '-c', '1', '-b', '16', '-e', 'signed-integer', '-L', '-'], { maxBuffer: 64 << 20 });
  return new Int16Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.length - (raw.length % 2)));
}

export function writeWav(file: string, samples: Int16Array): void {
  const data = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVEfmt ', 8);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(RATE, 24);
  h.writeUInt32LE(RATE * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36);
  h.writeUInt32LE(data.length, 40);
  fs.writeFileSync(file, Buffer.concat([h, data]));
}

export function rms(s: Int16Array, from = 0, to = s.length): number {
  if (to <= from) return 0;
  let sum = 0;
  for (let i = from; i < to; i++) sum += s[i]! * s[i]!;
  return Math.sqrt(sum / (to - from));
}

/** RMS per 20 ms frame. */
export function envelope(s: Int16Array): number[] {
  const out: number[] = [];
  for (let i = 0; i + FRAME <= s.length; i += FRAME) out.push(rms(s, i, i + FRAME));
  return out;
}

/** Milliseconds of frames louder than `threshold`. */
export function loudMs(s: Int16Array, threshold = 300): number {
  return envelope(s).filter((v) => v > threshold).length * 20;
}

/**
 * How well `sent` is found inside `got`, from 0 (nothing alike) to 1 (the same audio): the
 * level envelopes (log RMS of voiced 20 ms frames) are aligned by subsequence dynamic time
 * warping, so `sent` may start anywhere in `got`, and a frame a loaded machine dropped or
 * repeated costs one off-diagonal step instead of shifting everything after it. Every
 * off-diagonal step is charged a penalty so other speech cannot be warped into a match.
 * The score is 1 / (1 + mean cost per frame of `sent`).
 *
 * Frames are cut at fixed 20 ms steps, and a copy of the same audio that starts between two
 * steps (a browser's 10 ms capture and resampling, rather than an RTP caller's 160-sample
 * packets) cuts every syllable's edges differently: half a frame off costs as much as other
 * words do (the same speech scores 0.80 against itself shifted 80 samples). So `got` is also
 * cut from each quarter frame, and the best of those alignments is the score.
 */
export function envelopeMatch(sent: Int16Array, got: Int16Array): { score: number } {
  let score = 0;
  for (let shift = 0; shift < FRAME; shift += FRAME / 4) score = Math.max(score, alignedEnvelopeMatch(sent, got.subarray(shift)));
  return { score };
}

function alignedEnvelopeMatch(sent: Int16Array, got: Int16Array): number {
  const voiced = (s: Int16Array) => envelope(s).filter((v) => v > 120).map((v) => Math.log1p(v));
  const a = voiced(sent);
  const b = voiced(got);
  if (a.length === 0 || b.length === 0) return 0;
  const STEP = 0.45; // the price of a dropped or repeated frame
  let prev = new Float64Array(b.length);
  let cur = new Float64Array(b.length);
  for (let j = 0; j < b.length; j++) prev[j] = Math.abs(a[0]! - b[j]!); // free start anywhere in `got`
  for (let i = 1; i < a.length; i++) {
    cur[0] = prev[0]! + STEP + Math.abs(a[i]! - b[0]!);
    for (let j = 1; j < b.length; j++) {
      const c = Math.abs(a[i]! - b[j]!);
      cur[j] = c + Math.min(prev[j - 1]!, prev[j]! + STEP, cur[j - 1]! + STEP);
    }
    [prev, cur] = [cur, prev];
  }
  let best = Infinity;
  for (let j = 0; j < b.length; j++) best = Math.min(best, prev[j]!); // free end
  return 1 / (1 + best / a.length);
}

/**
 * Milliseconds of 20 ms frames that are a pure tone at `hz` (the record tone): see isTone.
 */
export function toneMs(s: Int16Array, hz: number): number {
  let frames = 0;
  for (let i = 0; i + FRAME <= s.length; i += FRAME) if (isTone(s.subarray(i, i + FRAME), hz)) frames++;
  return frames * 20;
}

/** The Goertzel power at `hz` in one frame of 8 kHz audio. */
export function tonePower(frame: Int16Array, hz: number): number {
  const coeff = 2 * Math.cos((2 * Math.PI * hz) / RATE);
  let s1 = 0;
  let s2 = 0;
  for (const v of frame) [s1, s2] = [v + coeff * s1 - s2, s1];
  return s1 * s1 + s2 * s2 - coeff * s1 * s2;
}

const energyOf = (frame: Int16Array) => frame.reduce((sum, v) => sum + v * v, 0);

/**
 * Whether one frame is a pure tone at `hz` (Asterisk's record beep is 1000 Hz): the Goertzel
 * power at `hz` holds most of the frame's power, which speech, with its many harmonics, never does.
 */
export function isTone(frame: Int16Array, hz: number): boolean {
  const energy = energyOf(frame);
  return energy > frame.length * 300 * 300 && tonePower(frame, hz) / (frame.length / 2) / energy > 0.7;
}

/** Whether one frame is the UK ring tone (400 + 450 Hz) a caller hears while a phone is rung for them. */
export function isRingback(frame: Int16Array): boolean {
  const energy = energyOf(frame);
  return energy > frame.length * 250 * 250 && (tonePower(frame, 400) + tonePower(frame, 450)) / (frame.length / 2) / energy > 0.5;
}
