/**
 * Who is waiting for speech: a caller on a live call, or someone who can wait (a console
 * preview, a greeting made ahead of its first call).
 */
export type SpeechPriority = 'call' | 'background';

/**
 * Syntheses allowed at once (engines are CPU-bound and the box has few cores), live calls
 * first: a freed slot goes to a waiting call before any background work, and background work
 * never takes the last free slot, so a caller waits at most for another call's sentence,
 * never for a queue of previews. A priority, not a bigger queue: the slots stay as they are.
 */
export function prioritySlots(slots: number) {
  let busy = 0;
  let background = 0;
  const backgroundMax = Math.max(1, slots - 1);
  const waiting: Record<SpeechPriority, Array<() => void>> = { call: [], background: [] };

  const pump = () => {
    for (;;) {
      if (busy >= slots) return;
      if (waiting.call.length > 0) {
        busy++;
        waiting.call.shift()!();
      } else if (waiting.background.length > 0 && background < backgroundMax) {
        busy++;
        background++;
        waiting.background.shift()!();
      } else return;
    }
  };

  return async <T>(priority: SpeechPriority, work: () => Promise<T>): Promise<T> => {
    await new Promise<void>((start) => {
      waiting[priority].push(start);
      pump();
    });
    try {
      return await work();
    } finally {
      busy--;
      if (priority === 'background') background--;
      pump();
    }
  };
}
