/**
 * Admission by arrival rate (issue 47): a node's limit is also how fast it can set calls up,
 * not only how many it holds. Past that rate answers come seconds late and callers hear a
 * broken greeting or none, while the count of calls in progress still looks fine. This module
 * keeps what the node observes of its own set-ups and says when a new caller should be
 * refused before the answer; it does no I/O and reads no clock (every time is passed in, ms).
 */

export interface SetupLimits {
  /** Most new calls taken per second, fractions allowed (0.2: one every 5 s); 0: no ceiling. */
  maxSetupsPerSecond: number;
  /**
   * An answer this much later than the call's arrival (StasisStart → Asterisk confirming the
   * answer) means the node is behind: new callers are refused until answers are prompt again.
   * 0: off.
   */
  lateAnswerMs: number;
}

/** Answers finished this recently speak for the node's present state. */
export const RECENT_MS = 3000;
/** Fewer recent answers than this say nothing about a trend (a single slow one is not overload). */
const MIN_RECENT = 3;

/** The window a ceiling is counted over: a second, or longer for a rate under one a second. */
export function ceilingWindowMs(perSecond: number): number {
  return Math.max(1000, Math.ceil(1000 / perSecond));
}

export class SetupWatch {
  /** When each admitted call arrived, oldest first (only those inside the ceiling's window are kept). */
  private arrivals: number[] = [];
  /** Admitted calls not answered yet, by channel: when each arrived. */
  private readonly waiting = new Map<string, number>();
  /** Answers confirmed, oldest first: when, and how long after the call's arrival. */
  private answers: Array<{ at: number; ms: number }> = [];

  constructor(private readonly limits: SetupLimits) {}

  get enabled(): boolean {
    return this.limits.maxSetupsPerSecond > 0 || this.limits.lateAnswerMs > 0;
  }

  /** A call was admitted at `at` and will now be answered. */
  admitted(id: string, at: number): void {
    this.arrivals.push(at);
    this.waiting.set(id, at);
  }

  /** Asterisk confirmed the answer of an admitted call. */
  answered(id: string, at: number): void {
    const arrived = this.waiting.get(id);
    if (arrived === undefined) return;
    this.waiting.delete(id);
    this.answers.push({ at, ms: at - arrived });
  }

  /** The call ended or was never answered: it no longer waits. */
  left(id: string): void {
    this.waiting.delete(id);
  }

  /** Why a caller arriving at `at` is refused, or undefined to take them. */
  refusal(at: number): string | undefined {
    this.prune(at);
    const { maxSetupsPerSecond: rate, lateAnswerMs: late } = this.limits;
    if (rate > 0) {
      const windowMs = ceilingWindowMs(rate);
      const allowed = Math.max(1, Math.floor((rate * windowMs) / 1000));
      const recent = this.arrivals.filter((t) => t > at - windowMs).length;
      if (recent >= allowed) return `${recent} new call${recent === 1 ? '' : 's'} in the last ${windowMs / 1000} s (limit ${rate} a second)`;
    }
    if (late > 0) {
      // A caller still waiting for their answer longer than the bound: every new one would wait longer.
      let oldest = Infinity;
      for (const t of this.waiting.values()) oldest = Math.min(oldest, t);
      if (at - oldest > late) return `a caller has waited ${Math.round(at - oldest)} ms to be answered (limit ${late} ms)`;
      const recent = this.answers.map((a) => a.ms).sort((a, b) => a - b);
      if (recent.length >= MIN_RECENT) {
        const p90 = recent[Math.ceil(recent.length * 0.9) - 1]!;
        if (p90 > late) return `answers taking ${Math.round(p90)} ms (p90 of the last ${RECENT_MS / 1000} s; limit ${late} ms)`;
      }
    }
    return undefined;
  }

  private prune(at: number): void {
    const keepArrivals = this.limits.maxSetupsPerSecond > 0 ? ceilingWindowMs(this.limits.maxSetupsPerSecond) : 0;
    while (this.arrivals.length && this.arrivals[0]! <= at - keepArrivals) this.arrivals.shift();
    while (this.answers.length && this.answers[0]!.at <= at - RECENT_MS) this.answers.shift();
  }
}
