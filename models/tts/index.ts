// models/tts: prompt audio for the call flows. Import from here, not from the files behind it.
export type { Prompt, PromptCache, TextToSpeech, TtsConfig, Voice } from './tts.js';
export type { SpeechPriority } from './tts.js';
export { createTextToSpeech } from './select-engine.js';
export { createPromptCache, localTtsPool, normalisePromptText, promptKey, PROMPTS_SOUND_DIR, type PromptStore } from './prompt-cache.js';
export { createPromptFolder, type PromptFolder } from './prompt-folder.js';
export { CommandError } from './run-command.js';
export { PIPER_VOICES, ESPEAK_VOICES, LANGUAGE_VOICES, languageVoices, type LanguageVoices, type Script } from './voices.js';
