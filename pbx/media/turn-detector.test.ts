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

  describe('speculation', () => {
    const spec = { ...cfg, endSilenceMs: 700, speculateMs: 200, resumeMs: 60 };
    const types = (events: TurnEvent[]) => events.map((e) => e.type);

    it('reports a pause with the turn so far after speculateMs of silence, then the turn at endSilenceMs', () => {
      const d = new TurnDetector(spec);
      const toPause = run(d, `${'S'.repeat(20)}${'.'.repeat(10)}`);
      expect(types(toPause)).toEqual(['speech-start', 'speech-confirmed', 'pause']);
      const pause = toPause.at(-1) as Extract<TurnEvent, { type: 'pause' }>;
      expect(pause.silenceMs).toBe(200);
      expect(pause.audio.length).toBe((20 + 10) * 320); // the speech and the silence so far
      expect(types(run(d, '.'.repeat(24)))).toEqual([]);
      expect(types(run(d, '.'))).toEqual(['turn']);
    });

    it('reports resume when the caller speaks again after the pause, and pauses again later', () => {
      const d = new TurnDetector(spec);
      run(d, `${'S'.repeat(20)}${'.'.repeat(10)}`);
      expect(types(run(d, 'SSS'))).toEqual(['resume']);
      expect(types(run(d, `${'S'.repeat(10)}${'.'.repeat(10)}`))).toEqual(['pause']);
    });

    it('a click after the pause (shorter than resumeMs) does not cancel it', () => {
      const d = new TurnDetector(spec);
      run(d, `${'S'.repeat(20)}${'.'.repeat(10)}`);
      expect(types(run(d, `S${'.'.repeat(40)}`))).toEqual(['turn']);
    });

    it('never pauses a short back-channel', () => {
      const d = new TurnDetector(spec);
      expect(types(run(d, `${'S'.repeat(8)}${'.'.repeat(12)}`))).toEqual(['speech-start', 'blip']);
    });

    it('ends the turn at once when the new end-of-turn silence has already passed', () => {
      const d = new TurnDetector(spec);
      run(d, `${'S'.repeat(20)}${'.'.repeat(10)}${'.'.repeat(15)}`); // 500 ms of silence
      const ended = d.setEndSilence(400);
      expect(types(ended)).toEqual(['turn']);
      expect((ended[0] as Extract<TurnEvent, { type: 'turn' }>).silenceMs).toBe(500);
      expect(d.speaking).toBe(false);
    });

    it('holds the turn past endSilenceMs when told to wait longer, until the caller resumes', () => {
      const d = new TurnDetector(spec);
      run(d, `${'S'.repeat(20)}${'.'.repeat(10)}`);
      expect(d.setEndSilence(1400)).toEqual([]);
      expect(types(run(d, '.'.repeat(50)))).toEqual([]); // 1200 ms of silence: still the caller's turn
      expect(types(run(d, 'SSS'))).toEqual(['resume']);
      // Resuming restores the usual end of turn for the rest of the stretch.
      expect(types(run(d, `${'S'.repeat(5)}${'.'.repeat(35)}`))).toEqual(['pause', 'turn']);
    });

    it('ignores a new end-of-turn silence that arrives after the caller resumed', () => {
      const d = new TurnDetector(spec);
      run(d, `${'S'.repeat(20)}${'.'.repeat(30)}`);
      run(d, 'SSSS');
      expect(d.setEndSilence(100)).toEqual([]);
      expect(d.speaking).toBe(true);
    });
  });
});
