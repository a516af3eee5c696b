import type { TextToSpeech, Voice, VoiceOption } from './tts.js';
import { espeakVoiceOptions, languageVoices, PIPER_VOICES, piperModelNames, piperVoiceLabel } from './voices.js';

/** Whether a Piper voice (`<name>.onnx` and its config) is installed where the adapter looks for it. */
export type PiperVoiceInstalled = (name: string) => boolean;

/**
 * Which Piper voice speaks `language`, or 'espeak' when none of Piper's may: the one rule both
 * Piper adapters (the CLI's, piper.ts, and the service's, piper-http.ts) speak by.
 * English (and any language without voices here) is the owner's female/male UK voice. Another
 * language: the owner's `chosen` voice when it is one of the language's and installed, else
 * Piper's voice for `voice` when installed. Without one the language is spoken by espeak-ng
 * (Urdu and Panjabi always): a caller hears their language in a plainer voice rather than none;
 * docs/agent.md lists the files to add.
 */
export function piperSpeaker(installed: PiperVoiceInstalled, voice: Voice, language: string | undefined, chosen: string | undefined): { name: string } | 'espeak' {
  if (!languageVoices(language)) return { name: PIPER_VOICES[voice] };
  const lang = language!;
  if (chosen?.startsWith('piper:')) {
    const name = chosen.slice('piper:'.length);
    if (piperModelNames(lang).includes(name) && installed(name)) return { name };
  }
  if (chosen && espeakVoiceOptions(lang).some((o) => o.id === chosen)) return 'espeak';
  const name = languageVoices(lang)?.piper?.[voice];
  return name && installed(name) ? { name } : 'espeak';
}

/** What both Piper adapters tell the console and the prompt cache: the voice a prompt is named for, and the voices an owner may choose. */
export function piperVoiceNaming(installed: PiperVoiceInstalled, espeak: TextToSpeech): Required<Pick<TextToSpeech, 'voiceName' | 'voices'>> {
  return {
    voiceName(voice, language, chosen) {
      const speaker = piperSpeaker(installed, voice, language, chosen);
      return speaker === 'espeak' ? espeak.voiceName!(voice, language, chosen) : `piper:${speaker.name}`;
    },
    voices(language): VoiceOption[] {
      const piper = piperModelNames(language).filter(installed);
      return [...piper.map((name) => ({ id: `piper:${name}`, label: piperVoiceLabel(name) })), ...espeak.voices!(language)];
    },
  };
}
