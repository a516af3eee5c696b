import { withBusyCap } from './sqlite-connection.js';

/** How long a background pass's statement may wait for another process's lock (SQLite). */
const BACKGROUND_BUSY_WAIT_MS = 25;

/**
 * Wraps a periodic pass (housekeeping, reminders, sweeps) so that every statement it issues
 * waits at most BACKGROUND_BUSY_WAIT_MS for a lock another process holds (a backup, an
 * operator's sqlite3 shell). better-sqlite3 waits for a lock by sleeping on the one thread
 * the whole core runs on: one uncapped write in a minute's sweep froze every call in progress
 * for the full busy timeout (5 s), long enough for Asterisk to end callers' messages as
 * silence. A capped pass fails fast, logs, and its next run does the work. PostgreSQL
 * passes are unaffected (their waits never hold the thread).
 */
export function backgroundPass<A extends unknown[], T>(pass: (...args: A) => Promise<T>): (...args: A) => Promise<T> {
  return (...args) => withBusyCap(BACKGROUND_BUSY_WAIT_MS, () => pass(...args));
}
