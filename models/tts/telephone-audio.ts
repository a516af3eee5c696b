import { runCommand } from './run-command.js';

const SOX_TIMEOUT_MS = 20_000;

/**
 * Converts any WAV an engine wrote into 8 kHz mono signed 16-bit PCM: the format
 * Asterisk's format_wav reads for `.wav` files (slin at 8 kHz), so playback to
 * alaw/ulaw trunks is one cheap translation and never a resample inside Asterisk.
 * `-G` guards against clipping when the level changes in the resampler.
 */
export function convertToTelephoneWav(input: string, output: string, signal?: AbortSignal): Promise<void> {
  return runCommand('sox', ['-G', input, '-r', '8000', '-c', '1', '-b', '16', '-e', 'signed-integer', output], {
    timeoutMs: SOX_TIMEOUT_MS,
    signal,
    missingHint: 'Install sox (apt-get install sox).',
  });
}
