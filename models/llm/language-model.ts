import { EngineError } from '../engine-error.js';
/** What the product needs from a language model: one reply to a short conversation. */
export interface LanguageModel {
  readonly name: string;
  chat(messages: ChatMessage[], opts?: ChatOptions): Promise<string>;
}

/** A language model that can hand its reply over piece by piece as it is generated (the agent's turns). */
export interface ReplyStreamer {
  readonly name: string;
  stream(messages: ChatMessage[], opts?: { signal?: AbortSignal }): AsyncIterable<string>;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatOptions {
  signal?: AbortSignal;
  /** Upper bound on generated tokens (SMS summaries are short). */
  maxTokens?: number;
  temperature?: number;
  /** A JSON schema the reply must follow (Ollama's structured output `format`). */
  format?: Record<string, unknown>;
}

/** A language-model failure; `retryable` (EngineError) drives the job queue's retries. */
export class LanguageModelError extends EngineError {}
