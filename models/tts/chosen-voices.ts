import type { PromptCache } from './tts.js';

/**
 * The prompt cache as one owner's call speaks through it (issue 42): each language in the voice
 * the owner chose for it (`chosen`: language code → VoiceOption id), every other one by the
 * owner's female/male rule. A choice the engine no longer has (a Piper voice removed) falls back
 * to that rule in the engine itself, so a call is never silent for a setting.
 */
export function withChosenVoices(speech: PromptCache, chosen: Readonly<Record<string, string>> | null | undefined): PromptCache {
  if (!chosen || Object.keys(chosen).length === 0) return speech;
  const pick = (language: string | undefined) => (language && Object.hasOwn(chosen, language) ? chosen[language] : undefined);
  return {
    get: (text, voice, priority, language) => speech.get(text, voice, priority, language, pick(language)),
    ...(speech.voiceName && { voiceName: (voice, language) => speech.voiceName!(voice, language, pick(language)) }),
    ...(speech.voices && { voices: (language) => speech.voices!(language) }),
  };
}
