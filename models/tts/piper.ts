import fs from 'node:fs';
import path from 'node:path';
import { withRawWav } from './engine-temp.js';
import { CommandError, runCommand } from './run-command.js';
import { convertToTelephoneWav } from './telephone-audio.js';
import type { TextToSpeech, Voice, VoiceOption } from './tts.js';
import { createEspeakTextToSpeech } from './espeak.js';
import { espeakVoiceOptions, languageVoices, PIPER_VOICES, piperModelNames, piperVoiceLabel } from './voices.js';

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

/** The model file of a voice named `name`, when it and its config are installed. */
function installedModel(voicesDir: string, name: string): string | undefined {
  const model = path.join(voicesDir, `${name}.onnx`);
  return fs.existsSync(model) && fs.existsSync(`${model}.json`) ? model : undefined;
}

/**
 * What speaks another language than English: the owner's `chosen` voice when it is one of the
 * language's and installed, else Piper's model for `voice` when installed. Without one the
 * language is spoken by espeak-ng (Urdu and Panjabi always): a caller hears their language in a
 * plainer voice rather than none; docs/agent.md lists the files to add.
 */
function otherLanguageSpeaker(voicesDir: string, voice: Voice, language: string, chosen: string | undefined): { model: string } | 'espeak' {
  if (chosen?.startsWith('piper:')) {
    const name = chosen.slice('piper:'.length);
    const model = piperModelNames(language).includes(name) ? installedModel(voicesDir, name) : undefined;
    if (model) return { model };
  }
  if (chosen && espeakVoiceOptions(language).some((o) => o.id === chosen)) return 'espeak';
  const name = languageVoices(language)?.piper?.[voice];
  const model = name ? installedModel(voicesDir, name) : undefined;
  return model ? { model } : 'espeak';
}

/** Piper's CLI: text on stdin, a WAV at the voice's native rate (22.05 kHz for "medium"), then sox. */
export function createPiperTextToSpeech(opts: { bin: string; voicesDir: string }): TextToSpeech {
  const espeak = createEspeakTextToSpeech();
  const inOtherLanguage = (language: string | undefined): language is string => languageVoices(language) !== undefined;
  return {
    engine: 'piper',
    voiceName(voice, language, chosen) {
      if (!inOtherLanguage(language)) return `piper:${PIPER_VOICES[voice]}`;
      const speaker = otherLanguageSpeaker(opts.voicesDir, voice, language, chosen);
      return speaker === 'espeak' ? espeak.voiceName!(voice, language, chosen) : `piper:${path.basename(speaker.model, '.onnx')}`;
    },
    voices(language): VoiceOption[] {
      const piper = piperModelNames(language).filter((name) => installedModel(opts.voicesDir, name));
      return [...piper.map((name) => ({ id: `piper:${name}`, label: piperVoiceLabel(name) })), ...espeak.voices!(language)];
    },
    async synthesize(text: string, voice: Voice, outFile: string, signal?: AbortSignal, language?: string, chosen?: string) {
      let model = piperModelPath(opts.voicesDir, voice);
      if (inOtherLanguage(language)) {
        const speaker = otherLanguageSpeaker(opts.voicesDir, voice, language, chosen);
        if (speaker === 'espeak') return espeak.synthesize(text, voice, outFile, signal, language, chosen);
        model = speaker.model;
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
