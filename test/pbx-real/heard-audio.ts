import { FRAME, isTone, RATE, rms } from './audio.js';

// What a test caller has heard: 20 ms frames of 8 kHz audio, each with the moment it was
// heard on this process's performance.now() clock, and the questions tests ask of them (was
// there sound, since when has it been quiet). A SIPp caller's RTP socket (caller-media.ts)
// and the browser's received track in "Call my line" (test/call-my-line/page-audio.ts) fill it.

const SOUND = 250; // RMS above which a 20 ms frame is sound (speech, prompts), not line silence

/** Asterisk's record beep (sounds/en/beep.wav): a 250 ms tone at 1000 Hz. */
const BEEP_HZ = 1000;
/** Frames of tone that make a beep (160 ms of its 250 ms): no greeting's speech holds a pure tone that long. */
const BEEP_FRAMES = 8;

export interface HeardFrame {
  /** performance.now() when the frame was heard. */
  at: number;
  /**
   * The RTP timestamp (the sender's media clock, 8 kHz), where there is one: a gap in
   * arrivals with none here was a delay on the way, not a pause in what was sent.
   */
  ts?: number;
  level: number;
  samples: Int16Array;
}

export class HeardAudio {
  readonly heardFrames: HeardFrame[] = [];
  /**
   * The envelope match (audio.ts) from which this listener has heard a given line: an RTP
   * caller gets exactly the frames Asterisk sent, so the same words score well above it and
   * other speech ≈ 0.65.
   */
  readonly hearsAt: number = 0.8;

  protected hear(at: number, samples: Int16Array, ts?: number): void {
    this.heardFrames.push({ at, ts, level: rms(samples), samples });
  }

  /**
   * Until when nothing arriving means nothing was said: now for a live socket; a source read
   * in batches overrides it with when it was last read.
   */
  protected heardUntil(): number {
    return performance.now();
  }

  /** Everything heard so far, frames in arrival order. */
  heard(fromAt = 0): Int16Array {
    const frames = this.heardFrames.filter((f) => f.at >= fromAt);
    const out = new Int16Array(frames.length * FRAME);
    frames.forEach((f, i) => out.set(f.samples.subarray(0, FRAME), i * FRAME));
    return out;
  }

  /** Milliseconds of sound heard (frames louder than line silence) since `fromAt`. */
  soundMs(fromAt = 0): number {
    return this.heardFrames.filter((f) => f.at >= fromAt && f.level > SOUND).length * 20;
  }

  /** Arrival time of the first sound frame after `fromAt`. */
  firstSoundAfter(fromAt: number): number | undefined {
    return this.heardFrames.find((f) => f.at >= fromAt && f.level > SOUND)?.at;
  }

  /**
   * When the record beep ended (the moment a caller starts speaking), by arrival time: the
   * first run of BEEP_FRAMES or more frames of pure 1000 Hz tone after `fromAt`, ended by a
   * frame that is not the tone, by a whole beep's length, or by 100 ms with no frame at all
   * (Asterisk sends nothing while it only records). Undefined until then. A pause between a
   * greeting's sentences is not a beep, so a caller waiting for this never talks over the greeting.
   */
  beepEndedAfter(fromAt = 0): number | undefined {
    // Callers ask every 20 ms for a whole greeting: each frame is judged once (a Goertzel per
    // frame for every poll of 100+ callers was the bench's callers' largest CPU cost).
    if (this.beepScan?.fromAt !== fromAt) this.beepScan = { fromAt, next: 0, run: 0 };
    const scan = this.beepScan;
    if (scan.endedAt !== undefined) return scan.endedAt;
    for (; scan.next < this.heardFrames.length; scan.next++) {
      const f = this.heardFrames[scan.next]!;
      if (f.at < fromAt) continue;
      const tone = f.level > SOUND && isTone(f.samples.subarray(0, FRAME), BEEP_HZ);
      if (tone) scan.run++;
      else if (scan.run >= BEEP_FRAMES) return (scan.endedAt = f.at);
      else scan.run = 0;
      if (scan.run >= 13) return (scan.endedAt = f.at + 20); // 260 ms: the whole beep
      scan.last = f;
    }
    if (scan.run >= BEEP_FRAMES && this.heardUntil() - scan.last!.at >= 100) return (scan.endedAt = scan.last!.at + 20);
    return undefined;
  }
  private beepScan: { fromAt: number; next: number; run: number; last?: HeardFrame; endedAt?: number } | undefined;

  /**
   * Arrival time of the first frame after which `quietMs` of silence (or nothing) followed,
   * counting from `fromAt`: when what the caller hears has stopped. Quiet is measured as a
   * phone plays it: quiet RTP frames last as long as their timestamps say (the sender's media
   * clock), not as long as they took to arrive, so a greeting's 0.4 s pause between
   * sentences that reached a loaded test process late is still 0.4 s, not the greeting's
   * end. Without timestamps, or where they jump (a new stream), arrival times count.
   */
  silenceStartedAfter(fromAt: number, quietMs: number): number | undefined {
    const frames = this.heardFrames.filter((f) => f.at >= fromAt);
    let lastLoud: HeardFrame | undefined;
    let last: HeardFrame | undefined;
    const heardQuiet = (f: HeardFrame) => {
      const arrival = f.at - lastLoud!.at;
      return f.ts === undefined || lastLoud!.ts === undefined ? arrival : Math.min(arrival, ((f.ts - lastLoud!.ts) >>> 0) / (RATE / 1000));
    };
    for (const f of frames) {
      last = f;
      if (f.level > SOUND) lastLoud = f;
      else if (lastLoud !== undefined && heardQuiet(f) >= quietMs) return lastLoud.at + 20;
    }
    // Asterisk sends nothing at all while it only listens (recording): silence is also time
    // passing without a frame, after the quiet the last frames carried.
    if (lastLoud !== undefined && heardQuiet(last!) + (this.heardUntil() - last!.at) >= quietMs) return lastLoud.at + 20;
    return undefined;
  }
}
