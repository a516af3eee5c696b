import type { EnginePool, Priority } from '../pool/engine-pool.js';
import type { SpeechToText } from './speech-to-text.js';

/** Speech-to-text over the pool's endpoints: each transcription takes a slot at `priority`. */
export function pooledSpeechToText(pool: EnginePool, priority: Priority, make: (url: string) => SpeechToText): SpeechToText {
  const made = new Map<string, SpeechToText>();
  const client = (url: string) => made.get(url) ?? made.set(url, make(url)).get(url)!;
  return {
    name: `${client(pool.stats().endpoints[0]!.url).name} (pool of ${pool.stats().endpoints.length})`,
    transcribe: (audioFile, opts = {}) => pool.run(priority, (url) => client(url).transcribe(audioFile, opts), opts.signal),
  };
}
