import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * The load figures admission reads on every new call, kept cheap: the event loop's delay
 * (p99 over the last second) and the number of post-call jobs waiting (counted at most once
 * a second, not once per caller).
 */
export interface NodeLoadReader {
  loopLagMs(): number;
  jobsWaiting(): number;
  stop(): void;
}

/** `countWaiting` counts the post-call jobs waiting (the PBX passes CallPath.pendingJobs). */
export function startNodeLoad(countWaiting: () => Promise<number>): NodeLoadReader {
  const delay = monitorEventLoopDelay({ resolution: 20 });
  delay.enable();
  let lagMs = 0;
  const tick = setInterval(() => {
    lagMs = delay.count > 0 ? delay.percentile(99) / 1e6 : 0;
    delay.reset();
  }, 1000);
  tick.unref();
  let waiting = 0;
  let countedAt = 0;
  // Admission decides synchronously (before the answer), so it reads the last count while a
  // fresh one is taken in the background: at most a second or one query old.
  const recount = () => {
    countedAt = Date.now();
    countWaiting()
      .then((n) => (waiting = n))
      .catch(() => undefined); // a locked or closing database keeps the last figure
  };
  recount();
  return {
    loopLagMs: () => lagMs,
    jobsWaiting() {
      if (Date.now() - countedAt >= 1000) recount();
      return waiting;
    },
    stop() {
      clearInterval(tick);
      delay.disable();
    },
  };
}
