import { DEFAULT_AGENT_STALL } from '../../../core/ports/pbx-host.js';
import type { Mode } from '../../../dialogue/agent/turn-policy.js';

// When a caller who has finished speaking is owed an answer and the engines have not produced
// one (no transcript from Whisper, no first sentence from Ollama or the TTS engine), the
// silence is filled: first a short holding phrase, then, if the engines stay stuck, the
// voicemail offer. Pure: the plan is a list of steps; StallWatch runs it on a clock.

/** How long a caller may wait after speaking before the agent fills the silence (ms from the end of their speech). */
export interface StallBounds {
  /** The holding phrase ("Bear with me a moment."). */
  holdMs: number;
  /** The voicemail offer, then the tone: the engines have stalled. */
  voicemailMs: number;
}

/** The configured defaults (AGENT_HOLD_AFTER_MS, AGENT_VOICEMAIL_AFTER_MS), for a conversation built without config. */
export const DEFAULT_STALL_BOUNDS: StallBounds = DEFAULT_AGENT_STALL;

/**
 * A turn committed after a long silence (a hesitation holds it 1.4 s) may be past a bound
 * already; its answer, often ready from the speculation, starts within this, so nothing is
 * said over it.
 */
export const AFTER_COMMIT_MIN_MS = 300;

/** hold: say the holding phrase; offer-voicemail: give up on the answer; close: thank a caller leaving a voicemail and end. */
export type StallStep = 'hold' | 'offer-voicemail' | 'close';

export interface PlannedStep {
  /** From the end of the caller's speech. */
  atMs: number;
  step: StallStep;
}

/**
 * What to do, and when, while a turn committed `committedAfterMs` after the caller stopped
 * speaking has not been answered aloud. A caller leaving a voicemail is owed no answer: the
 * recording holds the message, so a transcription that never comes only ends the call politely.
 */
export function stallPlan(mode: Mode, bounds: StallBounds, committedAfterMs: number): PlannedStep[] {
  const at = (ms: number) => Math.max(ms, committedAfterMs + AFTER_COMMIT_MIN_MS);
  if (mode === 'voicemail') return [{ atMs: at(bounds.voicemailMs), step: 'close' }];
  return [
    { atMs: at(bounds.holdMs), step: 'hold' },
    { atMs: at(bounds.voicemailMs), step: 'offer-voicemail' },
  ];
}

/**
 * What a step's handler says back: nothing (the step is done), or how long to wait before the
 * same step is tried again (the answer is nearly there: stall-watching.ts).
 */
export type StepOutcome = void | { retryInMs: number };

/** Runs a plan from `endOfSpeech` (on `now`'s clock) until stopped; each step fires once, in order. */
export class StallWatch {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(
    private readonly plan: PlannedStep[],
    private readonly endOfSpeech: number,
    private readonly now: () => number,
    private readonly act: (step: StallStep) => StepOutcome,
  ) {
    this.next(0);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Step `i`, not before `notBefore`; a step put off until the next one is due gives way to it. */
  private next(i: number, notBefore = 0): void {
    const planned = this.plan[i];
    if (!planned || this.stopped) return;
    const due = Math.max(this.endOfSpeech + planned.atMs, notBefore);
    const following = this.plan[i + 1];
    if (following && due >= this.endOfSpeech + following.atMs) return this.next(i + 1);
    this.timer = setTimeout(() => {
      if (this.stopped) return;
      const outcome = this.act(planned.step);
      if (outcome) this.next(i, this.now() + outcome.retryInMs);
      else this.next(i + 1);
    }, Math.max(0, due - this.now()));
  }
}
