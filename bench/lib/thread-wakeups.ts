// How many times a process's threads went to sleep and were woken, over a window (issue 47):
// Asterisk's CPU per call is almost all its channel threads waking for each RTP packet and
// each 20 ms playback tick, so wake-ups per call, and CPU per wake-up, say whether a change cut
// the work or only made each wake-up cheaper. Linux keeps the counts per thread
// (/proc/PID/task/TID/status, voluntary_ctxt_switches: each is one sleep, so one wake-up) and
// drops a thread's with the thread, so the threads are sampled while the window is open and
// each one's last reading counts: a call's thread that ends between two samples loses at most
// one interval of its wake-ups (about 1 % of a 23 s call at 250 ms).
import fs from 'node:fs';

const INTERVAL_MS = 250;

/** voluntary_ctxt_switches of each live thread of `pid` (none once it has gone). */
function readThreads(pid: number): Map<string, number> {
  const counts = new Map<string, number>();
  let tids: string[];
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return counts;
  }
  for (const tid of tids) {
    try {
      const m = /voluntary_ctxt_switches:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8'));
      if (m) counts.set(tid, Number(m[1]));
    } catch {
      // The thread ended between the listing and the read: its last sample stands.
    }
  }
  return counts;
}

/** Starts counting `pid`'s thread wake-ups; `stop()` returns how many happened since. */
export function countWakeUps(pid: number | undefined): { stop: () => number } {
  if (pid === undefined) return { stop: () => 0 };
  const before = readThreads(pid);
  const last = new Map(before);
  const sample = () => {
    for (const [tid, n] of readThreads(pid)) last.set(tid, n);
  };
  const timer = setInterval(sample, INTERVAL_MS);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      let total = 0;
      for (const [tid, n] of last) total += n - (before.get(tid) ?? 0);
      return total;
    },
  };
}
