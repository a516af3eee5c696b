import { withRawWav } from './engine-temp.js';
import { runCommand } from './run-command.js';
import { convertToTelephoneWav } from './telephone-audio.js';
import type { TextToSpeech, Voice } from './tts.js';
import { ESPEAK_VOICES, espeakVoiceOptions, languageVoices } from './voices.js';

const ESPEAK_TIMEOUT_MS = 20_000;
// A little under espeak-ng's default 175 wpm: callers hear prompts once, over a phone line.
const WORDS_PER_MINUTE = '155';

/** espeak-ng: always installable from Debian, so it is the embedded default when Piper is absent. */
export function createEspeakTextToSpeech(bin = 'espeak-ng'): TextToSpeech {
  return {
    engine: 'espeak-ng',
    voiceName: (voice, language, chosen) => `espeak-ng:${espeakVoice(voice, language, chosen)}`,
    voices: espeakVoiceOptions,
    async synthesize(text: string, voice: Voice, outFile: string, signal?: AbortSignal, language?: string, chosen?: string) {
      await withRawWav('espeak', async (raw) => {
        // Text goes through stdin, so a greeting starting with "-" is never read as an option.
        await runCommand(bin, ['-v', espeakVoice(voice, language, chosen), '-s', WORDS_PER_MINUTE, '-w', raw, '--stdin'], {
          input: text,
          timeoutMs: ESPEAK_TIMEOUT_MS,
          signal,
          missingHint: 'Install espeak-ng (apt-get install espeak-ng) or set TTS_ENGINE=piper with PIPER_VOICES_DIR.',
        });
        await convertToTelephoneWav(raw, outFile, signal);
      });
    },
  };
}

/**
 * espeak-ng's voice for a language (models/tts/voices.ts): the owner's `chosen` one when it is
 * one of the language's, else by `voice`; British English for English and any language without one.
 */
function espeakVoice(voice: Voice, language?: string, chosen?: string): string {
  if (chosen && language && espeakVoiceOptions(language).some((o) => o.id === chosen)) return chosen.slice('espeak-ng:'.length);
  return languageVoices(language)?.espeak[voice] ?? ESPEAK_VOICES[voice];
}
