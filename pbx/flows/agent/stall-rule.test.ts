import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AFTER_COMMIT_MIN_MS, DEFAULT_STALL_BOUNDS, stallPlan, StallWatch, type StallStep } from './stall-rule.js';

const bounds = { holdMs: 1200, voicemailMs: 8000 };

describe('stallPlan', () => {
  it('a caller owed an answer hears the holding phrase, then the voicemail offer, counted from the end of their speech', () => {
    expect(stallPlan('normal', bounds, 500)).toEqual([
      { atMs: 1200, step: 'hold' },
      { atMs: 8000, step: 'offer-voicemail' },
    ]);
    expect(stallPlan('message', bounds, 700)).toEqual(stallPlan('normal', bounds, 700));
  });

  it('a turn committed after a long silence is given a moment before anything is said over its answer', () => {
    expect(stallPlan('normal', bounds, 1400)).toEqual([
      { atMs: 1400 + AFTER_COMMIT_MIN_MS, step: 'hold' },
      { atMs: 8000, step: 'offer-voicemail' },
    ]);
  });

  it('a caller leaving a voicemail is owed no answer: a stuck transcription only ends the call', () => {
    expect(stallPlan('voicemail', bounds, 2000)).toEqual([{ atMs: 8000, step: 'close' }]);
  });

  it('the defaults keep the holding phrase within the 1.5 s a caller may wait after speaking', () => {
    expect(DEFAULT_STALL_BOUNDS.holdMs).toBeLessThan(1500);
    expect(DEFAULT_STALL_BOUNDS.voicemailMs).toBeGreaterThan(DEFAULT_STALL_BOUNDS.holdMs);
  });
});

describe('StallWatch', () => {
  beforeEach(() => vi.useFakeTimers({ now: 100_000 }));
  afterEach(() => vi.useRealTimers());

  const watch = (endOfSpeech: number, committedAfterMs: number, steps: StallStep[]) =>
    new StallWatch(stallPlan('normal', bounds, committedAfterMs), endOfSpeech, () => Date.now(), (s) => void steps.push(s));

  it('fires each step once, at its time after the end of speech', () => {
    const steps: StallStep[] = [];
    watch(Date.now() - 500, 500, steps); // started when the turn committed, 500 ms after speech ended
    vi.advanceTimersByTime(699);
    expect(steps).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(steps).toEqual(['hold']);
    vi.advanceTimersByTime(6799);
    expect(steps).toEqual(['hold']);
    vi.advanceTimersByTime(1);
    expect(steps).toEqual(['hold', 'offer-voicemail']);
    vi.advanceTimersByTime(60_000);
    expect(steps).toEqual(['hold', 'offer-voicemail']);
  });

  it('stopped (the answer started, the caller spoke again, the call ended): nothing more is said', () => {
    const steps: StallStep[] = [];
    const w = watch(Date.now() - 500, 500, steps);
    vi.advanceTimersByTime(700);
    w.stop();
    vi.advanceTimersByTime(60_000);
    expect(steps).toEqual(['hold']);
  });

  it('a step put off (the answer is with the voice) is tried again then; one put off past the next step gives way to it', () => {
    const tried: StallStep[] = [];
    const retries = [500, 60_000];
    new StallWatch(stallPlan('normal', bounds, 500), Date.now() - 500, () => Date.now(), (s) => {
      tried.push(s);
      const later = s === 'hold' ? retries.shift() : undefined;
      return later === undefined ? undefined : { retryInMs: later };
    });
    vi.advanceTimersByTime(700);
    expect(tried).toEqual(['hold']);
    vi.advanceTimersByTime(499);
    expect(tried).toEqual(['hold']);
    vi.advanceTimersByTime(1);
    expect(tried).toEqual(['hold', 'hold']); // put off again, past the voicemail offer's time
    vi.advanceTimersByTime(6299);
    expect(tried).toEqual(['hold', 'hold']);
    vi.advanceTimersByTime(1);
    expect(tried).toEqual(['hold', 'hold', 'offer-voicemail']);
  });

  it('a watch started late fires what is overdue at once, in order', () => {
    const steps: StallStep[] = [];
    watch(Date.now() - 9000, 500, steps);
    vi.advanceTimersByTime(1);
    expect(steps).toEqual(['hold', 'offer-voicemail']);
  });
});
