/** What the product needs from a language model: one reply to a short conversation. */
export interface LanguageModel {
  readonly name: string;
  chat(messages: ChatMessage[], opts?: ChatOptions): Promise<string>;
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
}

/** As SpeechToTextError: `retryable` says whether the same request may succeed later. */
export class LanguageModelError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'LanguageModelError';
  }
}
