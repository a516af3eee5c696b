import { createOllamaReplyStreamer, type ReplyStreamer } from '../../models/prompts/agent-responder.js';
import { createPromptCache, createTextToSpeech, type PromptCache } from '../../models/tts/index.js';
import type { Config } from '../config/config.js';

/**
 * The engines the agent speaks with, built once per configuration and shared by the
 * phone flow (pbx/flows/agent) and the console preview, so both give the same answer.
 */
export interface AgentEngines {
  replies: ReplyStreamer;
  /** Synthesised sentences, cached by (engine, voice, text) like the greetings. */
  speech: PromptCache;
}

const built = new WeakMap<Config, AgentEngines>();

/**
 * The agent's sentences (calls and console previews) are many and rarely repeat, so their
 * cache in $DATA_DIR/prompts is capped; the least recently used go first.
 */
export const AGENT_AUDIO_CACHE_BYTES = 256 * 1024 * 1024;

export function agentEngines(config: Config): AgentEngines {
  let engines = built.get(config);
  if (!engines) {
    const tts = createTextToSpeech(config.tts);
    engines = {
      replies: createOllamaReplyStreamer({ host: config.ollama.url, model: config.ollama.model }),
      speech: createPromptCache({ dataDir: config.dataDir, tts, maxBytes: AGENT_AUDIO_CACHE_BYTES }),
    };
    built.set(config, engines);
  }
  return engines;
}
