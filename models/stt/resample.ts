import { spawn } from 'node:child_process';
import { SpeechToTextError } from './speech-to-text.js';

/**
 * Converts a recording to 16 kHz, mono, 16-bit PCM WAV (what whisper.cpp's server reads
 * without its optional ffmpeg step; Asterisk records 8 kHz telephony audio).
 * No dither (-D): the same recording always gives the same bytes.
 */
export function resampleTo16kMono(input: string, output: string, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('sox', ['-V1', '-D', input, '-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', output], {
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: opts.timeoutMs ?? 30_000,
      signal: opts.signal,
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') reject(new SpeechToTextError('sox is not installed: install it to prepare audio for Whisper', true, undefined, { cause: err }));
      else reject(new SpeechToTextError(`sox could not run: ${err.message}`, true, undefined, { cause: err }));
    });
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else if (signal) reject(new SpeechToTextError(`sox was stopped (${signal}) while resampling`, true));
      // sox refusing the file means the recording itself is unreadable: retrying cannot help.
      else reject(new SpeechToTextError(`the recording could not be read: ${stderr.trim() || `sox exited with ${code}`}`, false));
    });
  });
}
