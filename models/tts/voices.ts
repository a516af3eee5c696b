import type { Voice } from './tts.js';

/**
 * Piper's UK voices (files `<name>.onnx` and `<name>.onnx.json` in PIPER_VOICES_DIR),
 * as published at huggingface.co/rhasspy/piper-voices under en/en_GB/.
 */
export const PIPER_VOICES: Readonly<Record<Voice, string>> = {
  female: 'en_GB-jenny_dioco-medium',
  male: 'en_GB-alan-medium',
};

/** espeak-ng's British English, with its female variant f3 for the female voice. */
export const ESPEAK_VOICES: Readonly<Record<Voice, string>> = {
  female: 'en-gb+f3',
  male: 'en-gb',
};
