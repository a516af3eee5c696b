import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const CACHE = path.join(os.tmpdir(), 'ari-sim-caller-audio');

/**
 * A caller's spoken words as Asterisk would hear them on a UK trunk: espeak-ng (en-GB)
 * resampled by sox to 8 kHz mono signed 16-bit. Cached by text across test files.
 */
export function callerSpeech(text: string, voice = 'en-gb'): string {
  fs.mkdirSync(CACHE, { recursive: true });
  const key = crypto.createHash('sha256').update(`${voice}\n${text}`).digest('hex').slice(0, 16);
  const out = path.join(CACHE, `${key}.wav`);
  if (fs.existsSync(out)) return out;
  const raw = path.join(CACHE, `${key}.${process.pid}.raw.wav`);
  const tmp = path.join(CACHE, `${key}.${process.pid}.tmp.wav`);
  execFileSync('espeak-ng', ['-v', voice, '-w', raw, text]);
  execFileSync('sox', [raw, '-r', '8000', '-c', '1', '-b', '16', '-e', 'signed-integer', tmp]);
  fs.rmSync(raw, { force: true });
  fs.renameSync(tmp, out); // atomic: a parallel worker never reads half a file
  return out;
}
