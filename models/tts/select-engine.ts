import { createEspeakTextToSpeech } from './espeak.js';
import { createPiperHttpTextToSpeech } from './piper-http.js';
import { createPiperTextToSpeech, piperVoicesPresent } from './piper.js';
import { resolveExecutable } from './run-command.js';
import type { TextToSpeech, TtsConfig } from './tts.js';

/**
 * The Piper service when PIPER_URL names one (docker-compose.yml's `piper`), unless TTS_ENGINE
 * is espeak-ng. Without it: Piper's CLI when asked for (TTS_ENGINE=piper) or when it is installed with both UK voices;
 * otherwise espeak-ng, which always works offline. An explicit choice is honoured even if
 * the files are missing, so the operator gets a clear error instead of a silent fallback.
 */
/** Which engine createTextToSpeech builds for `config`, without building it (the Piper service's adapter asks for its voices as it is made). */
export function chosenTtsEngine(config: TtsConfig): 'piper' | 'espeak-ng' {
  if (config.engine === 'espeak-ng') return 'espeak-ng';
  if (config.piperUrl || config.engine === 'piper') return 'piper';
  return resolveExecutable(config.piperBin) && piperVoicesPresent(config.piperVoicesDir) ? 'piper' : 'espeak-ng';
}

export function createTextToSpeech(config: TtsConfig): TextToSpeech {
  if (config.engine === 'espeak-ng') return createEspeakTextToSpeech();
  if (config.piperUrl) return createPiperHttpTextToSpeech({ url: config.piperUrl });
  if (config.engine === 'piper') {
    if (!config.piperVoicesDir) {
      throw new Error('TTS_ENGINE is piper but PIPER_VOICES_DIR is not set: point it at the folder holding the .onnx voices');
    }
    return createPiperTextToSpeech({ bin: config.piperBin, voicesDir: config.piperVoicesDir });
  }
  const bin = resolveExecutable(config.piperBin);
  if (bin && piperVoicesPresent(config.piperVoicesDir)) {
    return createPiperTextToSpeech({ bin, voicesDir: config.piperVoicesDir! });
  }
  return createEspeakTextToSpeech();
}
