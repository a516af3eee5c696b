import { describe, expect, it } from 'vitest';
import { TurnDetector, type TurnEvent } from './turn-detector.js';

const frame = (v = 0) => new Int16Array(320).fill(v);

function run(d: TurnDetector, pattern: string): TurnEvent[] {
  // 'S' = a speech frame, '.' = silence (20 ms each)
  return [...pattern].flatMap((c) => d.feed(frame(c === 'S' ? 1000 : 0), c === 'S'));
}

describe('TurnDetector', () => {
  const cfg = { startMs: 100, endSilenceMs: 200, minTurnMs: 300, blipSilenceMs: 100, preRollMs: 60 };

  it('starts after startMs of speech and ends the turn after endSilenceMs, with pre-roll audio', () => {
    const d = new TurnDetector(cfg);
    const events = run(d, `...${'S'.repeat(20)}${'.'.repeat(10)}`);
    expect(events.map((e) => e.type)).toEqual(['speech-start', 'speech-confirmed', 'turn']);
    const turn = events.at(-1) as Extract<TurnEvent, { type: 'turn' }>;
    expect(turn.speechMs).toBe(400);
    expect(turn.silenceMs).toBe(200);
    // 3 frames of pre-roll + 20 speech + 10 silence
    expect(turn.audio.length).toBe((3 + 20 + 10) * 320);
  });

  it('tolerates a one-frame dropout at the start and short pauses inside the turn', () => {
    const d = new TurnDetector(cfg);
    const events = run(d, `SS.SSS${'S'.repeat(10)}.....${'S'.repeat(10)}${'.'.repeat(10)}`);
    expect(events.filter((e) => e.type === 'turn')).toHaveLength(1);
  });

  it('reports a short back-channel ("mm") as a blip, not a turn', () => {
    const d = new TurnDetector(cfg);
    const events = run(d, `${'S'.repeat(8)}${'.'.repeat(12)}`);
    expect(events.map((e) => e.type)).toEqual(['speech-start', 'blip']);
    // It ends after blipSilenceMs, not the full end-of-turn silence, and carries its audio.
    const blip = events[1] as Extract<TurnEvent, { type: 'blip' }>;
    expect(blip.silenceMs).toBe(100);
    expect(blip.speechMs).toBe(160);
    expect(blip.audio.length).toBeGreaterThan(0);
  });

  it('ignores clicks shorter than startMs', () => {
    const d = new TurnDetector(cfg);
    expect(run(d, 'SS...S..SS....')).toEqual([]);
  });

  it('cuts a turn that runs past maxTurnMs', () => {
    const d = new TurnDetector({ ...cfg, maxTurnMs: 1000 });
    const events = run(d, 'S'.repeat(80));
    expect(events.filter((e) => e.type === 'turn').length).toBeGreaterThanOrEqual(1);
  });
});
