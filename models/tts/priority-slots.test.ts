import { describe, expect, it } from 'vitest';
import { prioritySlots, type SpeechPriority } from './priority-slots.js';

/** Work that runs until released, recording when it started. */
function harness(slots: number) {
  const run = prioritySlots(slots);
  const started: string[] = [];
  const release = new Map<string, () => void>();
  const job = (name: string, priority: SpeechPriority) =>
    run(priority, () => {
      started.push(name);
      return new Promise<void>((r) => release.set(name, r));
    });
  const settle = () => new Promise((r) => setImmediate(r));
  return { job, started, release: async (name: string) => (release.get(name)!(), await settle()), settle };
}

describe('speech slots, live calls first', () => {
  it('keeps a slot free for calls while previews queue, and gives a freed slot to a waiting call first', async () => {
    const h = harness(2);
    const previews = Array.from({ length: 12 }, (_, i) => h.job(`preview-${i}`, 'background'));
    await h.settle();
    // Twelve previews: one runs, the last slot stays free for a caller.
    expect(h.started).toEqual(['preview-0']);
    const call1 = h.job('call-1', 'call');
    await h.settle();
    expect(h.started).toEqual(['preview-0', 'call-1']);
    // Both slots busy: a second call waits, and gets the next slot ahead of eleven previews.
    const call2 = h.job('call-2', 'call');
    await h.settle();
    await h.release('preview-0');
    expect(h.started).toEqual(['preview-0', 'call-1', 'call-2']);
    // With calls done, previews take their one slot again, in turn.
    await h.release('call-1');
    await h.release('call-2');
    expect(h.started.slice(3)).toEqual(['preview-1']);
    for (let i = 1; i < 12; i++) await h.release(`preview-${i}`);
    await Promise.all([...previews, call1, call2]);
    expect(h.started.filter((n) => n.startsWith('preview'))).toHaveLength(12);
  });

  it('lets calls use every slot', async () => {
    const h = harness(2);
    void h.job('a', 'call');
    void h.job('b', 'call');
    void h.job('c', 'call');
    await h.settle();
    expect(h.started).toEqual(['a', 'b']);
    await h.release('a');
    expect(h.started).toEqual(['a', 'b', 'c']);
  });

  it('frees the slot when work fails', async () => {
    const run = prioritySlots(1);
    await expect(run('background', () => Promise.reject(new Error('engine crashed')))).rejects.toThrow('engine crashed');
    expect(await run('call', async () => 'spoken')).toBe('spoken');
  });
});
