import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { resample } from '../audio/resample.js';
import { buildWavHeader, isTelephoneWav, parseWavHeader, WavFormatError } from '../audio/wav-header.js';
import { SpeechToTextError } from './speech-to-text.js';

/**
 * Converts a recording to 16 kHz, mono, 16-bit PCM WAV (what whisper.cpp's server reads
 * without its optional ffmpeg step; Asterisk records 8 kHz telephony audio).
 *
 * Asterisk's own recordings (8 kHz mono 16-bit PCM) are doubled in this process: issue 47's
 * knee profile found spawning the sox child the core's biggest item per call (the fork of a
 * process the core's size holds its event loop, 50 ms a call at load 17-20), for a 2× upsample
 * the agent already does in JavaScript on every turn it sends Whisper. Anything else goes
 * through sox.
 * Either way the same recording always gives the same bytes (sox without dither, -D). The WAV
 * comes back in memory, as the upload needs it: no temporary file written and read back per call.
 */
export async function resampleTo16kMono(input: string, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<Uint8Array<ArrayBuffer>> {
  // A file that cannot be read or is not a WAV goes to sox too, which says what is wrong with it.
  const file = await fs.readFile(input, { signal: opts.signal }).catch(() => undefined);
  const info = (() => {
    try {
      return file && parseWavHeader(file, file.length);
    } catch (err) {
      if (err instanceof WavFormatError) return undefined;
      throw err;
    }
  })();
  if (!file || !info || !isTelephoneWav(info)) return resampleWithSox(input, opts);
  // Read in place when the samples start on an even byte (Asterisk's 44-byte header), else
  // copied once: an Int16Array needs an even offset. Large buffers are what this step costs
  // in garbage collection, so none is made that is not needed.
  const start = file.byteOffset + info.dataOffset;
  const pcm = start % 2 === 0 ? new Int16Array(file.buffer, start, info.dataBytes / 2) : new Int16Array(Uint8Array.prototype.slice.call(file, info.dataOffset, info.dataOffset + info.dataBytes).buffer);
  const up = resample(pcm, 8000, 16000);
  return Buffer.concat([buildWavHeader({ sampleRate: 16000, channels: 1, bitsPerSample: 16, dataBytes: up.byteLength }), new Uint8Array(up.buffer, up.byteOffset, up.byteLength)]);
}

async function resampleWithSox(input: string, opts: { timeoutMs?: number; signal?: AbortSignal }): Promise<Uint8Array<ArrayBuffer>> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'stt-'));
  try {
    const output = path.join(dir, 'audio-16k.wav');
    await runSox(input, output, opts);
    return await fs.readFile(output);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

function runSox(input: string, output: string, opts: { timeoutMs?: number; signal?: AbortSignal }): Promise<void> {
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
