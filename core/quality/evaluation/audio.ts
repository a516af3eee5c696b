import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { readWavInfo } from '../../../models/audio/wav-file.js';
import { runCommand } from '../../../models/tts/run-command.js';
import type { EvalMessage } from './set.js';

// The set's caller recordings, made from its text at eval time rather than committed:
// espeak-ng speaks the transcript in the entry's UK voice and speed, sox band-limits it to
// the telephone's 300-3400 Hz at 8 kHz, mixes in the entry's noise, and passes it through
// G.711 μ-law and back to the 16-bit PCM WAV Asterisk records. Every step is
// deterministic (sox -R seeds its noise and -D leaves dither out), so the same tools give
// the same bytes; the report carries the recordings' fingerprint and the tools' versions,
// and a comparison across different recordings says so. Files are cached by what made them.

/** Bump when the recipe below changes, so cached recordings made the old way are not reused. */
const RECIPE = 1;
const TIMEOUT_MS = 60_000;

export interface AudioTools {
  espeak: string;
  sox: string;
}

const DEFAULT_TOOLS: AudioTools = { espeak: 'espeak-ng', sox: 'sox' };

/** "eSpeak NG 1.51, SoX v14.4.2": what made the recordings, for the report. */
export async function toolVersions(tools: AudioTools = DEFAULT_TOOLS): Promise<string> {
  const run = promisify(execFile);
  const first = async (bin: string) => {
    try {
      const { stdout } = await run(bin, ['--version']);
      return stdout.trim().split('\n')[0]!.replace(/\s+Data at:.*$/, '').replace(/^sox:\s+/, '').replace(/\s+/g, ' ').trim();
    } catch {
      throw new Error(`${bin} is not installed: the evaluation makes its recordings with espeak-ng and sox (apt-get install espeak-ng sox)`);
    }
  };
  return `${await first(tools.espeak)}; ${await first(tools.sox)}`;
}

export interface Recording {
  id: string;
  file: string;
  /** sha256 of the WAV's bytes. */
  sha256: string;
}

/** The recording of each message, made once per (text, voice, speed, noise, tools) into `cacheDir`. */
export async function makeRecordings(messages: EvalMessage[], cacheDir: string, tools: AudioTools = DEFAULT_TOOLS): Promise<Recording[]> {
  await fs.mkdir(cacheDir, { recursive: true });
  const versions = await toolVersions(tools);
  const out: Recording[] = new Array(messages.length);
  // Two at a time: espeak-ng and sox are single-threaded and the box has other work.
  let next = 0;
  const worker = async () => {
    while (next < messages.length) {
      const i = next++;
      out[i] = await recordingFor(messages[i]!, cacheDir, versions, tools);
    }
  };
  await Promise.all([worker(), worker()]);
  return out;
}

/** One fingerprint for the whole set's audio: two reports with the same one heard the same recordings. */
export function audioFingerprint(recordings: Recording[]): string {
  const h = createHash('sha256');
  for (const r of recordings) h.update(`${r.id}:${r.sha256}\n`);
  return h.digest('hex').slice(0, 16);
}

async function recordingFor(m: EvalMessage, cacheDir: string, versions: string, tools: AudioTools): Promise<Recording> {
  const key = createHash('sha256').update(JSON.stringify({ RECIPE, versions, voice: m.voice, speed: m.speed, noise: m.noise, text: m.transcript })).digest('hex').slice(0, 16);
  const file = path.join(cacheDir, `${m.id}-${key}.wav`);
  try {
    return { id: m.id, file, sha256: sha256(await fs.readFile(file)) };
  } catch {
    // not made yet
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'eval-audio-'));
  try {
    const sox = (args: string[]) => runCommand(tools.sox, ['-V1', '-R', '-D', ...args], { timeoutMs: TIMEOUT_MS, missingHint: 'Install sox (apt-get install sox).' });
    const spoken = path.join(dir, 'spoken.wav');
    await runCommand(tools.espeak, ['-v', m.voice, '-s', String(m.speed), '-w', spoken, '--stdin'], {
      input: m.transcript,
      timeoutMs: TIMEOUT_MS,
      missingHint: 'Install espeak-ng (apt-get install espeak-ng).',
    });
    // The line: a moment of silence either side, as a caller starts after the beep and hangs up after.
    const line = path.join(dir, 'line.wav');
    await sox([spoken, '-r', '8000', '-c', '1', '-b', '16', '-e', 'signed-integer', line, 'sinc', '300-3400', 'pad', '0.4', '0.6']);
    let mixed = line;
    if (m.noise) {
      const seconds = ((await readWavInfo(line)).durationMs / 1000).toFixed(3);
      const noise = path.join(dir, 'noise.wav');
      await sox(['-n', '-r', '8000', '-c', '1', '-b', '16', '-e', 'signed-integer', noise, 'synth', seconds, m.noise.colour, 'sinc', '300-3400', 'vol', String(m.noise.level)]);
      mixed = path.join(dir, 'mixed.wav');
      // -v 1 on each input: sox -m otherwise halves both.
      await sox(['-m', '-v', '1', line, '-v', '1', noise, mixed]);
    }
    const ulaw = path.join(dir, 'ulaw.wav');
    await sox([mixed, '-e', 'u-law', '-b', '8', ulaw]);
    const tmp = `${file}.${process.pid}.tmp`;
    await sox([ulaw, '-e', 'signed-integer', '-b', '16', '-t', 'wav', tmp]);
    await fs.rename(tmp, file);
    return { id: m.id, file, sha256: sha256(await fs.readFile(file)) };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

function sha256(b: Buffer): string {
  return createHash('sha256').update(b).digest('hex');
}
