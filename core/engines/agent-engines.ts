import { AGENT_REPLY_SCHEMA } from '../../dialogue/agent/agent-reply.js';
import type { ReplyStreamer } from '../../models/llm/language-model.js';
import { createOllamaReplyStreamer } from '../../models/llm/ollama-stream.js';
import { pooledReplyStreamer } from '../../models/llm/pooled.js';
import { createSpeechToText } from '../../models/stt/factory.js';
import type { SpeechToText } from '../../models/stt/speech-to-text.js';
import { createPromptCache, createTextToSpeech, type PromptCache } from '../../models/tts/index.js';
import type { Config } from '../config/config.js';
import { createEnginePools, type EnginePools } from './engine-pools.js';

/**
 * The engines the agent speaks with, built once by the composition root (core/main.ts)
 * and shared by the phone flow (pbx/flows/agent) and the console preview, so both give
 * the same answer.
 */
export interface AgentEngines {
  replies: ReplyStreamer;
  /** Synthesised sentences, cached by (engine, voice, text) like the greetings. */
  speech: PromptCache;
  /** The caller's turns: short, so a stalled Whisper is given up on quickly. */
  stt: SpeechToText;
  /** The pools behind them, which the post-call pipeline shares at background priority and admission reads. */
  pools: EnginePools;
}

/**
 * The agent's sentences (calls and console previews) are many and rarely repeat, so their
 * cache in $DATA_DIR/prompts is capped; the least recently used go first.
 */
export const AGENT_AUDIO_CACHE_BYTES = 256 * 1024 * 1024;

export function createAgentEngines(config: Config, pools: EnginePools = createEnginePools(config)): AgentEngines {
  const tts = createTextToSpeech(config.tts);
  const format = AGENT_REPLY_SCHEMA as unknown as Record<string, unknown>;
  return {
    replies: pooledReplyStreamer(pools.llm, 'live', (host) => createOllamaReplyStreamer({ host, model: config.ollama.model, format })),
    speech: createPromptCache({ dataDir: config.dataDir, tts, maxBytes: AGENT_AUDIO_CACHE_BYTES, pool: pools.tts }),
    stt: createSpeechToText(pools.stt, 'live', { timeoutMs: 20_000 }),
    pools,
  };
}
