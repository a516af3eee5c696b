import fs from 'node:fs';
import path from 'node:path';
import { withRawWav } from './engine-temp.js';
import { CommandError, runCommand } from './run-command.js';
import { convertToTelephoneWav } from './telephone-audio.js';
import type { TextToSpeech, Voice } from './tts.js';
import { createEspeakTextToSpeech } from './espeak.js';
import { languageVoices, PIPER_VOICES } from './voices.js';

// Loading an .onnx voice takes seconds on a small CPU; a long greeting takes a few more.
const PIPER_TIMEOUT_MS = 60_000;

/** The model file of a voice; Piper also needs `<model>.json` beside it. */
function piperModelPath(voicesDir: string, voice: Voice): string {
  return path.join(voicesDir, `${PIPER_VOICES[voice]}.onnx`);
}

/** True when both UK voices and their configs are present in `voicesDir`. */
export function piperVoicesPresent(voicesDir: string | undefined): boolean {
  if (!voicesDir) return false;
  return (['female', 'male'] as const).every((v) => {
    const model = piperModelPath(voicesDir, v);
    return fs.existsSync(model) && fs.existsSync(`${model}.json`);
  });
}

/**
 * The Piper model for another language than English, when Piper has one and it is installed.
 * Without it the language is spoken by espeak-ng (Urdu and Panjabi always): a caller hears
 * their language in a plainer voice rather than none; docs/agent.md lists the files to add.
 */
function otherLanguageModel(voicesDir: string, voice: Voice, language: string): string | undefined {
  const name = languageVoices(language)?.piper?.[voice];
  if (!name) return undefined;
  const model = path.join(voicesDir, `${name}.onnx`);
  return fs.existsSync(model) && fs.existsSync(`${model}.json`) ? model : undefined;
}

/** Piper's CLI: text on stdin, a WAV at the voice's native rate (22.05 kHz for "medium"), then sox. */
export function createPiperTextToSpeech(opts: { bin: string; voicesDir: string }): TextToSpeech {
  const espeak = createEspeakTextToSpeech();
  const inOtherLanguage = (language: string | undefined): language is string => languageVoices(language) !== undefined;
  return {
    engine: 'piper',
    voiceName(voice, language) {
      if (!inOtherLanguage(language)) return `piper:${PIPER_VOICES[voice]}`;
      const model = otherLanguageModel(opts.voicesDir, voice, language);
      return model ? `piper:${path.basename(model, '.onnx')}` : espeak.voiceName!(voice, language);
    },
    async synthesize(text: string, voice: Voice, outFile: string, signal?: AbortSignal, language?: string) {
      let model = piperModelPath(opts.voicesDir, voice);
      if (inOtherLanguage(language)) {
        const other = otherLanguageModel(opts.voicesDir, voice, language);
        if (!other) return espeak.synthesize(text, voice, outFile, signal, language);
        model = other;
      }
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
