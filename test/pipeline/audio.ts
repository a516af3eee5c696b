import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** A real spoken recording as Asterisk stores it: espeak-ng speech turned into 8 kHz mono WAV by sox. */
export function speakToWav(dir: string, name: string, text: string): string {
  const raw = path.join(dir, `${name}.raw.wav`);
  const out = path.join(dir, `${name}.wav`);
  execFileSync('espeak-ng', ['-v', 'en-gb', '-w', raw, text]);
  execFileSync('sox', [raw, '-r', '8000', '-c', '1', '-b', '16', out]);
  return out;
}
