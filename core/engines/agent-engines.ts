import path from 'node:path';
import { AGENT_REPLY_SCHEMA } from '../../dialogue/agent/agent-reply.js';
import type { LanguageModel, ReplyStreamer } from '../../models/llm/language-model.js';
import { createOllamaLanguageModel } from '../../models/llm/ollama.js';
import { createOllamaReplyStreamer } from '../../models/llm/ollama-stream.js';
import { pooledLanguageModel, pooledReplyStreamer } from '../../models/llm/pooled.js';
import type { Priority } from '../../models/pool/engine-pool.js';
import { createSpeechToText } from '../../models/stt/factory.js';
import type { SpeechToText } from '../../models/stt/speech-to-text.js';
import { createPromptCache, createPromptFolder, createTextToSpeech, type PromptCache, type PromptFolder } from '../../models/tts/index.js';
import type { Config } from '../config/config.js';
import { createEnginePools, type EnginePools } from './engine-pools.js';
import { createModelReadiness, type ModelReadiness } from './model-readiness.js';
import type { Log } from '../../contract/log.js';

/**
 * The engines the agent speaks with, built once by the composition root (root/main.ts)
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
  /**
   * The one size accountant of $DATA_DIR/prompts (PROMPTS_MAX_MB): the agent's sentences,
   * which are many and rarely repeat, and the PBX's greetings both count against it.
   */
  promptFolder: PromptFolder;
  /** Whether OLLAMA_MODEL is on every Ollama endpoint (pulled on first start, issue 60); agent mode waits for it. Started by the root. */
  model: ModelReadiness;
}

export function createAgentEngines(config: Config, pools: EnginePools = createEnginePools(config), log?: Pick<Log, 'info' | 'warn'>): AgentEngines {
  const tts = createTextToSpeech(config.tts);
  const promptFolder = createPromptFolder({ dir: path.join(config.dataDir, 'prompts'), maxBytes: config.prompts.maxBytes, measureEveryMs: config.prompts.measureEveryMs });
  return {
    replies: createAgentReplies(config, pools),
    speech: createPromptCache({ dataDir: config.dataDir, tts, folder: promptFolder, pool: pools.tts }),
    stt: createSpeechToText(pools.stt, 'live', { timeoutMs: 20_000 }),
    pools,
    promptFolder,
    model: createModelReadiness({ hosts: config.ollama.endpoints.map((e) => e.url), model: config.ollama.model, log: log ?? { info: () => undefined, warn: () => undefined } }),
  };
}

/** The agent's streamed replies: Ollama's model over the pool at live priority (the self-test's at background), held to the reply contract's schema. */
export function createAgentReplies(config: Config, pools: EnginePools, priority: Priority = 'live'): ReplyStreamer {
  const format = AGENT_REPLY_SCHEMA as unknown as Record<string, unknown>;
  return pooledReplyStreamer(pools.llm, priority, (host) => createOllamaReplyStreamer({ host, model: config.ollama.model, numCtx: config.ollama.numCtx, format }));
}

/** The summaries' model: the same pool at background priority, so a summary never takes a slot a caller needs. */
export function createSummaryModel(config: Config, pools: EnginePools): LanguageModel {
  return pooledLanguageModel(pools.llm, 'background', (host) => createOllamaLanguageModel({ host, model: config.ollama.model, numCtx: config.ollama.numCtx }));
}
