import type { LanguageCode } from '../../../dialogue/language/languages.js';
import type { PromptCache, Voice } from '../../../models/tts/index.js';
import type { PacedPlayer, PlayResult } from '../../media/paced-player.js';
import { sentenceAudio } from './speech-audio.js';
import { SpeechUnavailable, TurnCancelled } from './turn-errors.js';
import type { FirstAudio } from './turn-metrics.js';
import type { TranscriptLine } from './transcript.js';

// The agent's voice for one action: sentences in order, each synthesised ahead of its playback
// (TTS of sentence n+1 runs while sentence n plays), a line in the transcript when it starts.

/** A sentence's audio synthesised before it was queued (by a speculation, or a recorded greeting). */
export interface ReadyAudio {
  audio: Promise<Int16Array>;
  startedAt: number;
  readyAt(): number | undefined;
}

/** What the speaker needs of the conversation. */
export interface SpeakerPort {
  now(): number;
  speech: PromptCache;
  voice: Voice;
  sampleRate: number;
  player: PacedPlayer;
  /** The language the agent answers in now (a line's own, when it has one, wins). */
  language(): LanguageCode;
  ended(): boolean;
  /** A line started playing: the caller hears the agent. */
  heard(line: TranscriptLine): void;
  /** A line already heard changed (cut short by the caller). */
  amended?(): void;
}

export class Speaker {
  /** The outcome it speaks for, for the first audio's figures. */
  kind: string | undefined;
  /** Some of it reached the caller. */
  started = false;
  private readonly plays: Promise<PlayResult>[] = [];
  private chain: Promise<void> = Promise.resolve();
  private first = true;

  constructor(
    private readonly port: SpeakerPort,
    private readonly signal: AbortSignal,
    private readonly onFirstAudio?: FirstAudio,
  ) {}

  add(text: string, ready?: ReadyAudio, language: LanguageCode = this.port.language()): void {
    const port = this.port;
    const t0 = ready?.startedAt ?? port.now();
    const made = ready?.audio ?? sentenceAudio(port.speech, text, port.voice, port.sampleRate, language);
    const audio = made.catch((err: unknown) => {
      throw new SpeechUnavailable(`could not synthesise "${text.slice(0, 40)}": ${(err as Error).message}`, { cause: err });
    });
    audio.catch(() => undefined); // surfaced through the chain below
    const isFirst = this.first;
    this.first = false;
    this.chain = this.chain.then(async () => {
      const pcm = await audio;
      if (this.signal.aborted || port.ended()) return;
      const readyAt = ready?.readyAt() ?? port.now();
      const ttsMs = readyAt - t0;
      let line: TranscriptLine | undefined;
      const played = port.player.play(pcm, {
        onStart: () => {
          this.started = true;
          line = { speaker: 'Agent', text };
          port.heard(line);
          if (isFirst) this.onFirstAudio?.(ttsMs, port.now(), readyAt, this.kind);
        },
      });
      this.plays.push(
        played.then((r) => {
          if (r === 'dropped' && line) {
            line.text += ' [interrupted]';
            port.amended?.();
          }
          return r;
        }),
      );
    });
  }

  async finished(): Promise<void> {
    await this.chain;
    await Promise.all(this.plays);
    if (this.signal.aborted) throw new TurnCancelled('interrupted');
  }
}
