import { EngineError } from '../engine-error.js';
/** What the product needs from speech-to-text: the words of one recorded call, in English unless asked to detect the language. */
export interface SpeechToText {
  readonly name: string;
  /** `audioFile` is any WAV the PBX stored; adapters convert it to what their engine wants. */
  transcribe(audioFile: string, opts?: TranscribeOptions): Promise<Transcript>;
}

interface TranscribeOptions {
  signal?: AbortSignal;
  /** 'auto': the engine detects the language and says which, with its probability; default English. */
  language?: 'auto';
}

export interface Transcript {
  /** Plain text, trimmed; empty when the recording holds no speech. */
  text: string;
  /** With language 'auto': the language the engine heard (its code, e.g. "pl", or its full name), when it said. */
  language?: string;
  /** How sure the engine was of `language` (0..1); absent when it does not report it (whisper.cpp before v1.7.6). */
  languageProbability?: number;
}

/** A speech-to-text failure; `retryable` (EngineError) drives the job queue's retries. */
export class SpeechToTextError extends EngineError {}
