import { setMaxListeners } from 'node:events';
import type { ResponderEvent } from '../../../dialogue/agent/agent-responder.js';

// Speculative turn-taking: the work for a caller turn that may not be over yet. When the
// caller has paused briefly, their words so far are transcribed, the model is asked and
// the first sentence is synthesised, all before the end-of-turn silence has passed. If
// the caller carries on, the speculation is cancelled; if the turn ends, the committed
// turn adopts it and the answer is already on its way.
//
// A speculation has no side effects a caller or owner could notice: it never plays audio,
// never writes the transcript or the history, never logs a question. It only buffers what
// the engines returned; the committed turn replays it and does all of that itself.

export interface SpeculativeWork {
  /** Whisper on the turn so far. */
  transcribe(signal: AbortSignal): Promise<string>;
  /** The model's reply to these words, or null when this turn would not ask the model. */
  reply(heard: string, signal: AbortSignal): AsyncIterable<ResponderEvent> | null;
  /** The first sentence's audio, made ahead (cancelling drops it; it cannot stop the engine). */
  synthesize(text: string): Promise<Int16Array>;
  now(): number;
}

class SpeculationCancelled extends Error {
  override name = 'SpeculationCancelled';
}

export class Speculation {
  readonly startedAt: number;
  /** Whisper's text; rejects with the engine's error (seen only if the turn commits). */
  readonly transcript: Promise<string>;
  sttDoneAt: number | undefined;
  /** Set when the model was asked (counted: the model is shared by every call). */
  llmStartedAt: number | undefined;
  firstTextAt: number | undefined;
  private readonly ac = new AbortController();
  private readonly buffered: ResponderEvent[] = [];
  private ended = false;
  private failure: unknown;
  private wake: (() => void) | undefined;
  private firstAudio: { text: string; startedAt: number; audio: Promise<Int16Array>; readyAt?: number } | undefined;

  constructor(
    private readonly work: SpeculativeWork,
    /** When the caller stopped speaking (the pause began). */
    readonly endOfSpeech: number,
  ) {
    // The model stream, Whisper and the committed turn all listen to this signal.
    setMaxListeners(64, this.ac.signal);
    this.startedAt = work.now();
    let resolve!: (t: string) => void;
    let reject!: (e: unknown) => void;
    this.transcript = new Promise<string>((res, rej) => ((resolve = res), (reject = rej)));
    this.transcript.catch(() => undefined); // surfaced to the committed turn, if there is one
    void this.run(resolve, reject);
  }

  get signal(): AbortSignal {
    return this.ac.signal;
  }

  get cancelled(): boolean {
    return this.ac.signal.aborted;
  }

  /** The caller carried on (or the call ended): everything started is thrown away. */
  cancel(reason: string): void {
    if (!this.ac.signal.aborted) this.ac.abort(new SpeculationCancelled(reason));
    this.notify();
  }

  /** The turn committed: from now on the committed turn's cancellation (barge-in) cancels this too. */
  adopt(turn: AbortSignal): void {
    if (turn.aborted) return this.cancel('turn cancelled');
    turn.addEventListener('abort', () => this.cancel('turn cancelled'), { once: true, signal: this.ac.signal });
  }

  /** The model's events so far, then the rest as they arrive. */
  async *replies(): AsyncGenerator<ResponderEvent> {
    let i = 0;
    for (;;) {
      while (i < this.buffered.length) yield this.buffered[i++]!;
      if (this.cancelled) throw this.ac.signal.reason;
      if (this.ended) {
        if (this.failure !== undefined) throw this.failure;
        return;
      }
      await new Promise<void>((r) => (this.wake = r));
    }
  }

  /** The first sentence's audio when it was made ahead, with when its synthesis started. */
  takeAudio(text: string): { audio: Promise<Int16Array>; startedAt: number; readyAt: () => number | undefined } | undefined {
    const a = this.firstAudio;
    if (!a || a.text !== text) return undefined;
    this.firstAudio = undefined;
    return { audio: a.audio, startedAt: a.startedAt, readyAt: () => a.readyAt };
  }

  private notify(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  private async run(resolve: (t: string) => void, reject: (e: unknown) => void): Promise<void> {
    const signal = this.ac.signal;
    let heard: string;
    try {
      heard = await this.work.transcribe(signal);
    } catch (err) {
      this.failure = err;
      this.ended = true;
      reject(err);
      this.notify();
      return;
    }
    this.sttDoneAt = this.work.now();
    const stream = signal.aborted ? null : this.work.reply(heard, signal);
    if (stream) this.llmStartedAt = this.work.now();
    resolve(heard); // after the model was asked, so whoever awaits this sees llmStartedAt
    if (!stream) {
      this.ended = true;
      this.notify();
      return;
    }
    try {
      for await (const ev of stream) {
        if (signal.aborted) break;
        if (ev.type === 'sentence' && this.firstTextAt === undefined) {
          this.firstTextAt = this.work.now();
          this.prefetch(ev.text);
        } else if (ev.type === 'done') {
          this.firstTextAt ??= this.work.now();
        }
        this.buffered.push(ev);
        this.notify();
      }
    } catch (err) {
      this.failure = err;
    }
    this.ended = true;
    this.notify();
  }

  private prefetch(text: string): void {
    const entry: NonNullable<Speculation['firstAudio']> = { text, startedAt: this.work.now(), audio: this.work.synthesize(text) };
    entry.audio.then(
      () => (entry.readyAt = this.work.now()),
      () => undefined, // the committed turn sees the failure when it plays this sentence
    );
    this.firstAudio = entry;
  }
}
