import { ollamaAnswers } from '../../models/llm/ollama.js';
import { admitAll, EnginePool, type Admission } from '../../models/pool/engine-pool.js';
import { whisperAnswers } from '../../models/stt/whisper-server.js';
import { localTtsPool } from '../../models/tts/index.js';
import type { Config } from '../config/config.js';
import { backoffDelayMs, type BackoffPolicy } from '../time/backoff.js';

/**
 * An endpoint taken out is probed again after 2 s, then 4, 8… up to a minute: soon enough
 * that a restarted engine rejoins within a call or two, rarely enough not to hammer one that is down.
 */
const ENDPOINT_BACKOFF: BackoffPolicy = { baseMs: 2_000, maxMs: 60_000, jitter: 0.2 };

/**
 * Conversations one Whisper slot serves within the latency budget. A caller's turn is a few
 * seconds of speech, transcribed in about a tenth of that (whisper.cpp base.en runs ~10× real
 * time on a small CPU), so one slot is busy well under a quarter of each ~6 s turn cycle;
 * four conversations rarely end a turn at the same moment. A reply holds an Ollama slot for
 * most of its turn, so Ollama serves one conversation per slot.
 */
const WHISPER_CALLS_PER_SLOT = 4;

/**
 * The engines' pools, one per engine, shared by live calls, the console's previews and the
 * post-call pipeline (which asks at `background` priority: live calls first, summaries wait).
 */
export interface EnginePools {
  llm: EnginePool;
  /** Absent without WHISPER_URL. */
  stt?: EnginePool;
  tts: EnginePool;
  /**
   * A new agent conversation's claim on its share of the language model and speech-to-text,
   * or null when the pools already serve all the conversations they can. Counters only.
   */
  admitConversation(): Admission | null;
  close(): void;
}

export function createEnginePools(config: Config): EnginePools {
  const backoffMs = (failures: number) => backoffDelayMs(failures, ENDPOINT_BACKOFF);
  // A draft or a summary holds an Ollama slot many times a caller's turn: a caller takes it back.
  const llm = new EnginePool({ engine: 'ollama', endpoints: config.ollama.endpoints, backoffMs, probe: (url) => ollamaAnswers(url), preemptBackground: true });
  const stt = config.whisper.endpoints.length
    ? new EnginePool({
        engine: 'whisper',
        endpoints: config.whisper.endpoints,
        callsPerSlot: WHISPER_CALLS_PER_SLOT,
        backoffMs,
        probe: (url) => whisperAnswers(url),
      })
    : undefined;
  const tts = localTtsPool(config.tts.slots);
  return {
    llm,
    stt,
    tts,
    admitConversation: () => admitAll(stt ? [llm, stt] : [llm]),
    close() {
      llm.close();
      stt?.close();
      tts.close();
    },
  };
}
