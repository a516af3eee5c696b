// Outbound audio on the 20 ms frame clock. Writing a whole sentence to the socket at once
// is the classic cause of clipped speech (the far end's jitter buffer overflows and drops
// it), so each frame leaves on its own tick. Deadlines are computed from the start of the
// talk spurt, so timer lateness does not accumulate; after a long stall (an event-loop
// pause) the clock restarts rather than bursting to catch up.
//
// Control (pause, resume, clear on barge-in) is kept apart from the data: clear() drops
// every queued frame at once and settles each dropped utterance as 'dropped'.

export type PlayResult = 'played' | 'dropped';

interface Utterance {
  frames: Int16Array[];
  done: (r: PlayResult) => void;
  onStart?: () => void;
  started: boolean;
}

export interface PacedPlayerOptions {
  frameSamples: number;
  frameMs?: number;
  send: (frame: Int16Array) => void;
  now?: () => number;
}

export class PacedPlayer {
  private readonly queue: Utterance[] = [];
  private timer: NodeJS.Timeout | undefined;
  private spurtStart = 0;
  private spurtFrames = 0;
  private paused = false;
  private closed = false;
  private readonly frameMs: number;
  private readonly now: () => number;
  /** Frames sent so far (for tests and the benchmark). */
  framesSent = 0;
  /** Time the last frame left, ms (performance.now clock). */
  lastSentAt = 0;

  constructor(private readonly opts: PacedPlayerOptions) {
    this.frameMs = opts.frameMs ?? 20;
    this.now = opts.now ?? (() => performance.now());
  }

  /** True while there is audio queued or playing (even if paused). */
  get busy(): boolean {
    return this.queue.length > 0;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** Milliseconds of audio still queued. */
  get queuedMs(): number {
    return this.queue.reduce((n, u) => n + u.frames.length, 0) * this.frameMs;
  }

  /** Queues one utterance; resolves when its last frame has left, or when it is dropped. */
  play(samples: Int16Array, opts: { onStart?: () => void } = {}): Promise<PlayResult> {
    if (this.closed) return Promise.resolve('dropped');
    const frames: Int16Array[] = [];
    const n = this.opts.frameSamples;
    for (let i = 0; i < samples.length; i += n) {
      const f = new Int16Array(n); // the last frame is padded with silence
      f.set(samples.subarray(i, Math.min(i + n, samples.length)));
      frames.push(f);
    }
    return new Promise((resolve) => {
      if (frames.length === 0) return resolve('played');
      this.queue.push({ frames, done: resolve, onStart: opts.onStart, started: false });
      this.kick();
    });
  }

  /** Stops sending at once, keeping the queue (a possible barge-in that may be a cough). */
  pause(): void {
    this.paused = true;
    this.stopTimer();
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.kick();
  }

  /** Barge-in: drops everything queued; returns the milliseconds of speech dropped. */
  clear(): number {
    const dropped = this.queuedMs;
    this.stopTimer();
    for (const u of this.queue.splice(0)) u.done('dropped');
    this.paused = false;
    return dropped;
  }

  close(): void {
    this.clear();
    this.closed = true;
  }

  private stopTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private kick(): void {
    if (this.timer || this.paused || this.closed || this.queue.length === 0) return;
    // A new talk spurt: the clock starts now.
    this.spurtStart = this.now();
    this.spurtFrames = 0;
    this.tick();
  }

  private tick = (): void => {
    this.timer = undefined;
    if (this.paused || this.closed) return;
    const u = this.queue[0];
    if (!u) return;
    if (!u.started) {
      u.started = true;
      u.onStart?.();
    }
    const frame = u.frames.shift()!;
    this.opts.send(frame);
    this.framesSent++;
    this.lastSentAt = this.now();
    this.spurtFrames++;
    if (u.frames.length === 0) {
      this.queue.shift();
      u.done('played');
    }
    if (this.queue.length === 0) return;
    let due = this.spurtStart + this.spurtFrames * this.frameMs;
    const now = this.now();
    if (now - due > 5 * this.frameMs) {
      // Stalled for over 100 ms: restart the clock instead of sending a burst.
      this.spurtStart = now;
      this.spurtFrames = 0;
      due = now;
    }
    this.timer = setTimeout(this.tick, Math.max(0, due - now));
  };
}
