import { SELF_TEST_SLOW_FIRST_AUDIO_MS } from '../../contract/schemas/quality.js';

// The dashboard's plain advice from a self-test's figures.

export interface Advice {
  slow: boolean;
  text: string;
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);

/** From the agent's first audio p50 (null: the run timed no turn). */
export function selfTestAdvice(firstAudioP50Ms: number | null): Advice {
  if (firstAudioP50Ms === null) {
    return { slow: true, text: 'The self-test could not time the assistant: no turn reached its first audio. Check that Ollama and the voice engine answer, or keep owners in voicemail mode.' };
  }
  if (firstAudioP50Ms > SELF_TEST_SLOW_FIRST_AUDIO_MS) {
    return {
      slow: true,
      text: `On this hardware the assistant takes ${seconds(firstAudioP50Ms)} s to start answering (p50); callers notice over ${seconds(SELF_TEST_SLOW_FIRST_AUDIO_MS)} s. Use a smaller model (OLLAMA_MODEL) or keep owners in voicemail mode.`,
    };
  }
  return { slow: false, text: `On this hardware the assistant starts answering in ${seconds(firstAudioP50Ms)} s (p50): quick enough for agent mode.` };
}
