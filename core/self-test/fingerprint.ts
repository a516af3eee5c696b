import { createHash } from 'node:crypto';

// What the self-test's figures depend on: the model, where the engines are and which voices
// speak. The same fingerprint as the last completed run: its figures still hold, no need to
// run again on a restart; any change (a new model, a moved engine, a voice added): run again.

export interface EngineIdentity {
  ollamaModel: string;
  ollamaUrls: string[];
  whisperUrls: string[];
  whisperModel: string | null;
  /** The speech engine the box actually uses (piper or espeak-ng) and where it runs from. */
  ttsEngine: string;
  ttsLocation: string | null;
  /** The voice files the engine can speak with (names and sizes), sorted. */
  voices: string[];
}

/** "ollama llama3.2:3b at http://ollama:11434 · whisper http://whisper:8080 · piper (2 voices)": for people. */
export function describeEngines(e: EngineIdentity): string {
  const voices = e.voices.length ? ` (${e.voices.length} voice${e.voices.length === 1 ? '' : 's'})` : '';
  return `ollama ${e.ollamaModel} at ${e.ollamaUrls.join(', ')} · whisper${e.whisperModel ? ` ${e.whisperModel}` : ''} at ${e.whisperUrls.join(', ') || 'none'} · ${e.ttsEngine}${voices}`;
}

/** A short hash of everything above; the order of the URL lists is kept (it is the order calls use them in). */
export function engineFingerprint(e: EngineIdentity): string {
  const canonical = JSON.stringify([e.ollamaModel, e.ollamaUrls, e.whisperUrls, e.whisperModel, e.ttsEngine, e.ttsLocation, [...e.voices].sort()]);
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}

/** Run when no completed self-test was made on these engines. */
export function selfTestDue(current: string, lastCompleted: string | null): boolean {
  return current !== lastCompleted;
}
