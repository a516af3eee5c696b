import { EngineError } from '../engine-error.js';
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

/** A speech-to-text failure; `retryable` (EngineError) drives the job queue's retries. */
export class SpeechToTextError extends EngineError {}
