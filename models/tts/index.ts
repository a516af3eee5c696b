// models/tts: prompt audio for the call flows. Import from here, not from the files behind it.
export type { PromptCache, TextToSpeech, Voice, VoiceOption } from './tts.js';
export { chosenTtsEngine, createTextToSpeech } from './select-engine.js';
export { createPromptCache, localTtsPool, normalisePromptText, promptKey, PROMPTS_SOUND_DIR, type PromptStore } from './prompt-cache.js';
export { createPromptFolder, type PromptFolder } from './prompt-folder.js';
export { CommandError } from './run-command.js';
export { PIPER_VOICES, LANGUAGE_VOICES, type Script } from './voices.js';
export { withChosenVoices } from './chosen-voices.js';
