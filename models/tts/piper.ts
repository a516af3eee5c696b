import fs from 'node:fs';
import path from 'node:path';
import { withRawWav } from './engine-temp.js';
import { CommandError, runCommand } from './run-command.js';
import { convertToTelephoneWav } from './telephone-audio.js';
import type { TextToSpeech, Voice } from './tts.js';
import { createEspeakTextToSpeech } from './espeak.js';
import { PIPER_VOICES } from './voices.js';
import { piperSpeaker, piperVoiceNaming } from './piper-speaker.js';

// Loading an .onnx voice takes seconds on a small CPU; a long greeting takes a few more.
const PIPER_TIMEOUT_MS = 60_000;

/** True when both UK voices and their configs are present in `voicesDir`. */
export function piperVoicesPresent(voicesDir: string | undefined): boolean {
  return !!voicesDir && Object.values(PIPER_VOICES).every((name) => installed(voicesDir, name));
}

/** True when the voice `name` and its config are installed in `voicesDir`. */
function installed(voicesDir: string, name: string): boolean {
  const model = path.join(voicesDir, `${name}.onnx`);
  return fs.existsSync(model) && fs.existsSync(`${model}.json`);
}

/** Piper's CLI: text on stdin, a WAV at the voice's native rate (22.05 kHz for "medium"), then sox. */
export function createPiperTextToSpeech(opts: { bin: string; voicesDir: string }): TextToSpeech {
  const espeak = createEspeakTextToSpeech();
  const has = (name: string) => installed(opts.voicesDir, name);
  return {
    engine: 'piper',
    ...piperVoiceNaming(has, espeak),
    async synthesize(text: string, voice: Voice, outFile: string, signal?: AbortSignal, language?: string, chosen?: string) {
      const speaker = piperSpeaker(has, voice, language, chosen);
      if (speaker === 'espeak') return espeak.synthesize(text, voice, outFile, signal, language, chosen);
      const model = path.join(opts.voicesDir, `${speaker.name}.onnx`);
      if (!fs.existsSync(model)) {
        throw new CommandError(
          'missing',
          `Piper voice ${PIPER_VOICES[voice]} not found at ${model}: put ${PIPER_VOICES[voice]}.onnx and .onnx.json in PIPER_VOICES_DIR, or set TTS_ENGINE=espeak-ng`,
        );
      }
      await withRawWav('piper', async (raw) => {
        await runCommand(opts.bin, ['--model', model, '--output_file', raw], {
          input: text,
          timeoutMs: PIPER_TIMEOUT_MS,
          signal,
          missingHint: 'Install Piper (github.com/rhasspy/piper) and set PIPER_BIN, or set TTS_ENGINE=espeak-ng.',
        });
        await convertToTelephoneWav(raw, outFile, signal);
      });
    },
  };
}
