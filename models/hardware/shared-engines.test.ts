import { describe, expect, it } from 'vitest';
import { callsHeld, nearestRank, simulateCalls, type SimulatedTurn } from './shared-engines.js';
import type { TurnTime } from './turn-time.js';

/** A turn whose engines take these ms; the total is as turnTime would give with `silence` waited. */
function turn(stt: number, prompt: number, first: number, rest: number, tts: number, silence: number): TurnTime {
  return { stt, promptRead: prompt, firstSentence: first, tts, total: silence + stt + prompt + first + tts, busy: { stt, llm: prompt + first + rest, tts } };
}

describe('calls sharing one box’s engines', () => {
  const t = turn(100, 200, 100, 300, 50, 200);
  const script: SimulatedTurn[] = [
    { time: t, speakingMs: 3000, replySpokenMs: 4000 },
    { time: t, speakingMs: 3000, replySpokenMs: 4000 },
  ];

  it('gives one call alone each turn’s own engine time', () => {
    expect(simulateCalls(1, script, 200)).toEqual([650, 650]);
  });

  it('makes a call wait for the model while another call’s reply is still being generated', () => {
    // Two calls 1.5 s apart: the model is held 600 ms a turn, so they never meet.
    expect(simulateCalls(2, script, 200)).toEqual([650, 650, 650, 650]);
    // A model held 1.9 s a turn (1.6 s of it after the first sentence). Call one ends speaking at
    // 3.0 s and holds the model from 3.3 s to 5.2 s; call two ends at 4.5 s, its transcript is ready
    // at 4.8 s, and it waits for the model until 5.2 s: first audio at 5.2 + 0.3 + 0.05 s.
    const slow = turn(100, 200, 100, 1600, 50, 200);
    const waits = simulateCalls(2, [{ time: slow, speakingMs: 3000, replySpokenMs: 4000 }], 200);
    expect(waits).toEqual([650, 5550 - 4500]);
  });

  it('counts the calls held under the p95 limit, and none when one call alone misses it', () => {
    const slow = turn(100, 200, 100, 1600, 50, 200);
    const one = [{ time: slow, speakingMs: 3000, replySpokenMs: 4000 }];
    expect(callsHeld(one, 200, 650)).toBe(1);
    expect(callsHeld(one, 200, 649)).toBe(0);
    expect(callsHeld(one, 200, 1050)).toBe(2);
    expect(callsHeld(one, 200, 1049)).toBe(1);
  });

  it('takes the nearest-rank percentile', () => {
    expect(nearestRank([5, 1, 4, 2, 3], 50)).toBe(3);
    expect(nearestRank([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 100], 95)).toBe(19);
  });
});
