// Turn taking on the caller's stream, fed one 20 ms frame and its VAD verdict at a time.
// Pure (no clock of its own: time is counted in frames), so it is unit-tested frame by frame.
//
//   quiet ──(startMs of speech)──▶ speaking ──(endSilenceMs of silence)──▶ quiet
//                 │ emits speech-start                 │ emits turn (≥ minTurnMs of speech)
//                 │ (barge-in pauses playback here)    │ or blip (shorter: "mm", a cough, "ok")
//
// Speculative turn-taking: after speculateMs of silence in a real turn it also emits pause
// (the turn so far, so transcription and the reply can start), and resume if the caller
// then speaks again. The end-of-turn silence of the current stretch can be moved once its
// words are known (setEndSilence): shorter after a complete question, longer after "um".

export interface TurnConfig {
  frameMs: number;
  /** Speech needed before the caller counts as talking (ignores clicks). */
  startMs: number;
  /** Silence that ends the caller's turn. */
  endSilenceMs: number;
  /** Shorter stretches of speech are back-channel noises ("mm", "ok"), not interruptions. */
  minTurnMs: number;
  /** Silence after such a short stretch that ends it, so paused playback resumes quickly. */
  blipSilenceMs: number;
  /** Audio kept from before the start, so the first syllable reaches STT whole. */
  preRollMs: number;
  /** A turn is cut here even if the caller keeps talking. */
  maxTurnMs: number;
  /** Silence inside a real turn after which `pause` is emitted (0: never, the old path). */
  speculateMs: number;
  /** Speech after a pause that means the caller carried on (`resume`); shorter is a click. */
  resumeMs: number;
}

const DEFAULT_TURN_CONFIG: TurnConfig = {
  frameMs: 20,
  startMs: 100,
  endSilenceMs: 700,
  minTurnMs: 500,
  blipSilenceMs: 240,
  preRollMs: 300,
  maxTurnMs: 30_000,
  speculateMs: 0,
  resumeMs: 60,
};

export type TurnEvent =
  | { type: 'speech-start' }
  /** Enough speech that this is a real turn, not a back-channel (barge-in commits here). */
  | { type: 'speech-confirmed' }
  /** A short stretch: a back-channel while the agent talks, or a one-word answer ("Yes.") when it listens. */
  | { type: 'blip'; audio: Int16Array; speechMs: number; silenceMs: number }
  /** silenceMs is the silence that passed; endSilenceMs the end-of-turn silence the rules asked for (less, when frames came late). */
  | { type: 'turn'; audio: Int16Array; speechMs: number; silenceMs: number; endSilenceMs: number }
  /** speculateMs of silence in a real turn: the turn so far, which may yet go on. */
  | { type: 'pause'; audio: Int16Array; speechMs: number; silenceMs: number }
  /** The caller spoke again after a pause: whatever was started on it is stale. */
  | { type: 'resume' };

export class TurnDetector {
  private state: 'quiet' | 'speaking' = 'quiet';
  private recent: boolean[] = [];
  private preRoll: Int16Array[] = [];
  private frames: Int16Array[] = [];
  private speechFrames = 0;
  private silenceRun = 0;
  private confirmed = false;
  /** A pause was reported and the caller has not resumed since. */
  private paused = false;
  private speechSincePause = 0;
  private endSilenceFrames: number;
  private readonly c: TurnConfig;

  constructor(config: Partial<TurnConfig> = {}) {
    this.c = { ...DEFAULT_TURN_CONFIG, ...config };
    this.endSilenceFrames = this.frames_(this.c.endSilenceMs);
  }

  get speaking(): boolean {
    return this.state === 'speaking';
  }

  private frames_(ms: number): number {
    return Math.max(1, Math.round(ms / this.c.frameMs));
  }

  feed(frame: Int16Array, speech: boolean): TurnEvent[] {
    const out: TurnEvent[] = [];
    if (this.state === 'quiet') {
      this.preRoll.push(frame);
      const need = this.frames_(this.c.startMs);
      // Holds the frames that proved the start as well as the pre-roll before them.
      if (this.preRoll.length > this.frames_(this.c.preRollMs) + need + 1) this.preRoll.shift();
      this.recent.push(speech);
      if (this.recent.length > need + 1) this.recent.shift();
      // One non-speech frame inside the window is tolerated (VAD flicker on plosives).
      if (this.recent.filter(Boolean).length >= need) {
        this.state = 'speaking';
        this.frames = [...this.preRoll];
        this.preRoll = [];
        this.speechFrames = need;
        this.silenceRun = 0;
        this.confirmed = false;
        out.push({ type: 'speech-start' });
      }
      return out;
    }

    this.frames.push(frame);
    if (speech) {
      this.speechFrames++;
      this.silenceRun = 0;
      if (this.paused && ++this.speechSincePause >= this.frames_(this.c.resumeMs)) {
        this.paused = false;
        this.endSilenceFrames = this.frames_(this.c.endSilenceMs);
        out.push({ type: 'resume' });
      }
    } else {
      this.silenceRun++;
    }
    if (!this.confirmed && this.speechFrames >= this.frames_(this.c.minTurnMs)) {
      this.confirmed = true;
      out.push({ type: 'speech-confirmed' });
    }
    const tooLong = this.frames.length >= this.frames_(this.c.maxTurnMs);
    const speechMs = this.speechFrames * this.c.frameMs;
    const silenceMs = this.silenceRun * this.c.frameMs;
    if (!this.confirmed && this.silenceRun >= this.frames_(this.c.blipSilenceMs)) {
      out.push({ type: 'blip', audio: concat(this.frames), speechMs, silenceMs });
      this.reset();
    } else if (this.silenceRun >= this.endSilenceFrames || tooLong) {
      out.push({ type: 'turn', audio: concat(this.frames), speechMs, silenceMs, endSilenceMs: this.endSilenceFrames * this.c.frameMs });
      this.reset();
    } else if (this.confirmed && !this.paused && this.c.speculateMs > 0 && this.silenceRun === this.frames_(this.c.speculateMs)) {
      this.paused = true;
      this.speechSincePause = 0;
      out.push({ type: 'pause', audio: concat(this.frames), speechMs, silenceMs });
    }
    return out;
  }

  /**
   * Moves the end-of-turn silence of the stretch now paused (its words are known). Ends the
   * turn at once when the caller has already been silent that long; ignored once they resume.
   */
  setEndSilence(ms: number): TurnEvent[] {
    if (this.state !== 'speaking' || !this.paused) return [];
    this.endSilenceFrames = this.frames_(ms);
    if (this.silenceRun < this.endSilenceFrames) return [];
    const event: TurnEvent = {
      type: 'turn',
      audio: concat(this.frames),
      speechMs: this.speechFrames * this.c.frameMs,
      silenceMs: this.silenceRun * this.c.frameMs,
      endSilenceMs: this.endSilenceFrames * this.c.frameMs,
    };
    this.reset();
    return [event];
  }

  /** Forget the current stretch (e.g. the agent's own prompt is over and listening restarts). */
  reset(): void {
    this.state = 'quiet';
    this.recent = [];
    this.preRoll = [];
    this.frames = [];
    this.speechFrames = 0;
    this.silenceRun = 0;
    this.confirmed = false;
    this.paused = false;
    this.speechSincePause = 0;
    this.endSilenceFrames = this.frames_(this.c.endSilenceMs);
  }
}

function concat(frames: Int16Array[]): Int16Array {
  const out = new Int16Array(frames.reduce((n, f) => n + f.length, 0));
  let o = 0;
  for (const f of frames) {
    out.set(f, o);
    o += f.length;
  }
  return out;
}
