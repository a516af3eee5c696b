// Issue 56: who picked up a call-back, judged from the called party's audio in the first seconds
// after the answer (before the agent says anything). Pure: frames in, a verdict out.
//
// - A beep (a steady tone between 900 and 2100 Hz for at least 300 ms): an answering machine
//   ready to record. The verdict comes when the tone ends, so the message is left after it.
// - No speech at all for the first 5 s: an answering machine (or a line nobody speaks on).
// - A short utterance ("Hello?") followed by half a second of quiet: a person.
// - Long speech (a recorded greeting) keeps the rule listening for its beep, up to 12 s; if
//   none comes, a person. When in doubt, a person: the agent never hangs up on one mid-sentence.

export type Pickup = { kind: 'person' } | { kind: 'machine'; why: 'beep' | 'silence' };

export interface MachineRuleOptions {
  sampleRate: number;
  /** No speech for this long after the answer → a machine. */
  silenceMs?: number;
  /** A tone at least this long is a beep. */
  beepMs?: number;
  /** Quiet after a short utterance that makes it a person's "Hello?". */
  endOfWordsMs?: number;
  /** Speech longer than this before a pause is a recorded greeting: wait for its beep. */
  greetingMs?: number;
  /** The longest the rule listens: then, in doubt, a person. */
  maxListenMs?: number;
}

const DEFAULTS = { silenceMs: 5000, beepMs: 300, endOfWordsMs: 500, greetingMs: 2500, maxListenMs: 12_000 };

/** A frame quieter than this (RMS of 16-bit samples) is not speech: line noise and comfort noise sit far below. */
const SPEECH_RMS = 400;
/** Speech heard for less than this (in total) is a click or a breath, not words. */
const MIN_SPEECH_MS = 100;
/** The share of a frame's energy at one frequency that makes it a tone (a voice spreads over many harmonics). */
const TONE_SHARE = 0.7;
const BEEP_HZ = { min: 900, max: 2100 };

/** The share of `x`'s energy at `hz` (Goertzel over the frame), 1 for a pure tone on that frequency. */
function shareAt(x: Int16Array, hz: number, sampleRate: number, energy: number): number {
  const w = (2 * Math.PI * hz) / sampleRate;
  const c = 2 * Math.cos(w);
  let s1 = 0;
  let s2 = 0;
  for (const v of x) {
    const s0 = v + c * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  const power = s1 * s1 + s2 * s2 - c * s1 * s2;
  return power / ((x.length * energy) / 2);
}

/** The frame's frequency if it is a steady tone in the beep band, else undefined. */
export function toneIn(x: Int16Array, sampleRate: number): number | undefined {
  let energy = 0;
  let crossings = 0;
  for (let i = 0; i < x.length; i++) {
    energy += x[i]! * x[i]!;
    if (i > 0 && (x[i - 1]! < 0) !== (x[i]! < 0)) crossings++;
  }
  if (x.length === 0 || Math.sqrt(energy / x.length) < SPEECH_RMS) return undefined;
  const hz = (crossings * sampleRate) / (2 * x.length);
  if (hz < BEEP_HZ.min - 50 || hz > BEEP_HZ.max + 50) return undefined;
  // Zero crossings place the tone within half a bin; the best of a few nearby frequencies is its share.
  const step = sampleRate / x.length / 4;
  const share = Math.max(...[-2, -1, 0, 1, 2].map((k) => shareAt(x, hz + k * step, sampleRate, energy)));
  return share >= TONE_SHARE ? hz : undefined;
}

function rms(x: Int16Array): number {
  let e = 0;
  for (const v of x) e += v * v;
  return x.length ? Math.sqrt(e / x.length) : 0;
}

export class MachineRule {
  private readonly o: typeof DEFAULTS & { sampleRate: number };
  private elapsedMs = 0;
  private toneMs = 0;
  private speechMs = 0;
  private quietMs = 0;
  private verdict: Pickup | undefined;

  constructor(opts: MachineRuleOptions) {
    this.o = { ...DEFAULTS, ...opts };
  }

  /** Feeds one frame of the called party's audio; returns the verdict once there is one (and from then on). */
  push(frame: Int16Array): Pickup | undefined {
    if (this.verdict) return this.verdict;
    const frameMs = (frame.length * 1000) / this.o.sampleRate;
    this.elapsedMs += frameMs;
    if (toneIn(frame, this.o.sampleRate) !== undefined) {
      this.toneMs += frameMs;
      this.quietMs = 0;
      return undefined;
    }
    // The beep has ended: the machine records from now.
    if (this.toneMs >= this.o.beepMs) return (this.verdict = { kind: 'machine', why: 'beep' });
    this.toneMs = 0;
    if (rms(frame) >= SPEECH_RMS) {
      this.speechMs += frameMs;
      this.quietMs = 0;
    } else this.quietMs += frameMs;
    return (this.verdict = this.judge());
  }

  private judge(): Pickup | undefined {
    const { speechMs, quietMs, elapsedMs, o } = this;
    const spoke = speechMs >= MIN_SPEECH_MS;
    if (!spoke) return elapsedMs >= o.silenceMs ? { kind: 'machine', why: 'silence' } : undefined;
    if (speechMs < o.greetingMs && quietMs >= o.endOfWordsMs) return { kind: 'person' };
    // A long greeting: its beep may still come; a long quiet after it, or the bound, and it is a person.
    if (quietMs >= o.silenceMs / 2 || elapsedMs >= o.maxListenMs) return { kind: 'person' };
    return undefined;
  }
}
