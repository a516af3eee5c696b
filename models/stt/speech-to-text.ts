/** What the product needs from speech-to-text: the words of one recorded call, in English. */
export interface SpeechToText {
  readonly name: string;
  /** `audioFile` is any WAV the PBX stored; adapters convert it to what their engine wants. */
  transcribe(audioFile: string, opts?: { signal?: AbortSignal }): Promise<Transcript>;
}

export interface Transcript {
  /** Plain text, trimmed; empty when the recording holds no speech. */
  text: string;
}

/**
 * An engine failure that says whether trying again can help: a stopped or busy service
 * (connection refused, timeout, 5xx, 408, 429) is retryable; audio the engine rejects is not.
 */
export class SpeechToTextError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SpeechToTextError';
  }
}
