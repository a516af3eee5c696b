import sonicBoom from 'sonic-boom';

/**
 * Log lines held in memory while nobody reads standard output; past this, new lines are
 * dropped, so a stalled reader costs the core a bounded amount of memory and never its work.
 */
const HELD_BYTES = 4 * 1024 * 1024;
/** How long the last lines get to reach a reader when the process exits; then they are left. */
const EXIT_FLUSH_MS = 2000;

/**
 * The core's standard output for its log, written so that a reader who stops reading never
 * blocks the core (issue 53 item 7: a core whose output pipe was full never finished SIGTERM).
 * Writes are asynchronous and a full pipe is retried in the background; at exit what is
 * left gets EXIT_FLUSH_MS, whereas pino's own destination waits for the reader for ever.
 */
export function stdoutLog(): sonicBoom.SonicBoom {
  // Reading process.stdout makes Node open a pipe non-blocking: a full pipe then answers
  // EAGAIN instead of holding the writing thread (and, at exit, the process) in the kernel.
  const fd = process.stdout.fd;
  let giveUpAt = Number.POSITIVE_INFINITY;
  const stream = new sonicBoom.SonicBoom({ fd, sync: false, maxLength: HELD_BYTES, retryEAGAIN: () => Date.now() < giveUpAt });
  // A reader that went away (EPIPE) or gave up: the lines are lost, the core carries on.
  stream.on('error', () => undefined);
  process.once('exit', () => {
    giveUpAt = Date.now() + EXIT_FLUSH_MS;
    try {
      stream.flushSync();
    } catch {
      // Still full after EXIT_FLUSH_MS: the rest is not written.
    }
  });
  return stream;
}
