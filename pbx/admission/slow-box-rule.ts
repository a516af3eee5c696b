/**
 * The slow-box guard's rule (issue 60 item 4), pure: no clock, no I/O. It watches the agent's
 * caller's end of speech → first audio (TurnMetrics.totalMs) on this node and decides whether a
 * NEW agent-mode call may have the assistant, or is answered in voicemail mode with the owner's
 * greeting. Calls in progress are never affected: they keep measuring.
 *
 * - Closes when the last `windowTurns` turns (a full window) have a median above `limitMs`: a
 *   box that slow keeps callers in silence for seconds on every turn.
 * - While closed there would be no turns to show a recovery, so fresh evidence is let in: one
 *   new agent call in every `trialEvery` is let through as a trial (the others get voicemail).
 *   The window is emptied when the guard closes, so only turns measured since count.
 * - Reopens once at least `reopenTurns` fresh turns have a median at or below `limitMs` ×
 *   `reopenRatio` (hysteresis: a box hovering at the limit does not flap).
 */
export interface SlowBoxLimits {
  /** AGENT_SLOW_P50_MS; 0 turns the guard off. */
  limitMs: number;
  windowTurns: number;
  reopenTurns: number;
  reopenRatio: number;
  trialEvery: number;
}

export const SLOW_BOX_DEFAULTS: Omit<SlowBoxLimits, 'limitMs'> = { windowTurns: 20, reopenTurns: 3, reopenRatio: 0.75, trialEvery: 5 };

/** What a recorded turn changed: the guard closed or opened with it, or nothing. */
export type SlowBoxChange = 'closed' | 'opened' | undefined;

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export class SlowBoxRule {
  private readonly turns: number[] = [];
  private closedNow = false;
  private refusedSinceTrial = 0;

  constructor(private readonly limits: SlowBoxLimits) {}

  get closed(): boolean {
    return this.closedNow;
  }

  /** The median of the turns in the window (0 when none). */
  p50(): number {
    return median(this.turns);
  }

  /** A turn's end of speech → first audio, from any agent call on this node. */
  record(totalMs: number): SlowBoxChange {
    if (this.limits.limitMs <= 0 || !Number.isFinite(totalMs)) return undefined;
    this.turns.push(totalMs);
    if (this.turns.length > this.limits.windowTurns) this.turns.shift();
    if (!this.closedNow) {
      if (this.turns.length < this.limits.windowTurns || this.p50() <= this.limits.limitMs) return undefined;
      this.closedNow = true;
      this.turns.length = 0;
      this.refusedSinceTrial = 0;
      return 'closed';
    }
    if (this.turns.length < this.limits.reopenTurns || this.p50() > this.limits.limitMs * this.limits.reopenRatio) return undefined;
    this.closedNow = false;
    return 'opened';
  }

  /** Whether a new agent-mode call gets the assistant now (a trial while closed counts as one). */
  admitNew(): boolean {
    if (!this.closedNow) return true;
    if (this.refusedSinceTrial + 1 >= this.limits.trialEvery) {
      this.refusedSinceTrial = 0;
      return true;
    }
    this.refusedSinceTrial += 1;
    return false;
  }
}
