import { CalendarUnavailable, type CalendarReader } from './calendar-gate.js';

// Whether each owner's calendar answered its last read, so the Calendar tab can say when it
// stopped answering (and that bookings are being taken as requests meanwhile). Kept in memory:
// the next read after a restart tells again, and on a cluster each core tells of its own reads.

export interface CalendarTrouble {
  /** The first read that failed since the calendar last answered. */
  since: Date;
  /** Why the latest read failed, in the words the desk gives the owner. */
  reason: string;
}

export class CalendarHealth {
  private readonly troubles = new Map<number, CalendarTrouble>();

  answered(ownerId: number): void {
    this.troubles.delete(ownerId);
  }

  failed(ownerId: number, reason: string, at: Date): void {
    this.troubles.set(ownerId, { since: this.troubles.get(ownerId)?.since ?? at, reason });
  }

  /** Null while the calendar answers (or has not been read since the box started). */
  of(ownerId: number): CalendarTrouble | null {
    return this.troubles.get(ownerId) ?? null;
  }

  /** Forgets an owner's trouble when they change their calendar: the next read judges the new one. */
  forget(ownerId: number): void {
    this.troubles.delete(ownerId);
  }
}

/** `reader` with each read's outcome told to `health`; a read cut off by its time bound counts as not answering. */
export function watchedReader<R extends CalendarReader>(reader: R, health: CalendarHealth, now: () => Date): R {
  return {
    ...reader,
    async busy(ownerId, from, to, read) {
      // A team member's own calendar is not the owner's Calendar tab's to report.
      if (read.staffId !== undefined) return reader.busy(ownerId, from, to, read);
      try {
        const busy = await reader.busy(ownerId, from, to, read);
        health.answered(ownerId);
        return busy;
      } catch (err) {
        // A read the caller gave up on (they hung up) says nothing about the calendar.
        if (!read.signal?.aborted) health.failed(ownerId, err instanceof CalendarUnavailable ? err.reason : err instanceof Error ? err.message : String(err), now());
        throw err;
      }
    },
  };
}
