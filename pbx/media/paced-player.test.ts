import { describe, expect, it, vi } from 'vitest';
import { PacedPlayer } from './paced-player.js';

describe('PacedPlayer', () => {
  it('sends one frame per tick in order, padding the last frame', async () => {
    const sent: Int16Array[] = [];
    const p = new PacedPlayer({ frameSamples: 4, send: (f) => sent.push(f) });
    const done = p.play(Int16Array.from([1, 2, 3, 4, 5, 6]));
    // Paced: not everything leaves at once.
    expect(sent.length).toBe(1);
    expect(await done).toBe('played');
    expect(sent.map((f) => [...f])).toEqual([
      [1, 2, 3, 4],
      [5, 6, 0, 0],
    ]);
  });

  it('spaces frames on the 20 ms clock without drift (fake time)', async () => {
    vi.useFakeTimers();
    try {
      const times: number[] = [];
      const p = new PacedPlayer({ frameSamples: 1, send: () => times.push(Date.now()), now: () => Date.now() });
      const start = Date.now();
      const done = p.play(new Int16Array(50));
      await vi.advanceTimersByTimeAsync(2000);
      expect(await done).toBe('played');
      expect(times.map((t) => t - start)).toEqual(Array.from({ length: 50 }, (_, i) => i * 20));
    } finally {
      vi.useRealTimers();
    }
  });

  it('barge-in: clear() stops at once and drops queued utterances', async () => {
    const sent: Int16Array[] = [];
    const p = new PacedPlayer({ frameSamples: 160, send: (f) => sent.push(f) });
    const first = p.play(new Int16Array(160 * 100));
    const second = p.play(new Int16Array(160 * 10));
    await vi.waitFor(() => expect(sent.length).toBeGreaterThan(2));
    expect(p.clear()).toBeGreaterThan(0);
    const count = sent.length;
    expect(await first).toBe('dropped');
    expect(await second).toBe('dropped');
    expect(p.busy).toBe(false);
    await new Promise((r) => setImmediate(r));
    expect(sent.length).toBe(count);
  });

  it('pause() holds the queue and resume() carries on from the same frame', async () => {
    const sent: number[] = [];
    const p = new PacedPlayer({ frameSamples: 1, send: (f) => sent.push(f[0]!) });
    const done = p.play(Int16Array.from({ length: 30 }, (_, i) => i));
    await vi.waitFor(() => expect(sent.length).toBeGreaterThan(3));
    p.pause();
    const at = sent.length;
    expect(p.isPaused).toBe(true);
    p.resume();
    expect(await done).toBe('played');
    expect(sent).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(at).toBeLessThan(30);
  });
});
