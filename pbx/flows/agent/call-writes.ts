import type { Log } from '../../../contract/log.js';

/**
 * An agent call's database writes (questions, urgency, transcript). They wait out a database
 * locked by another process off the event loop (CallPath), so the conversation goes on
 * meanwhile; the flow returns only once they landed, so the finisher announces the call after
 * them (the summary reads them).
 */
export interface CallWrites {
  /** Tracks `w`; a failure is logged as "could not <what>". */
  write(what: string, w: Promise<void>): void;
  /** Resolves once every write, including any started meanwhile, has settled. */
  written(): Promise<void>;
}

export function trackWrites(log: Log, callId: number): CallWrites {
  const writes = new Set<Promise<void>>();
  return {
    write(what, w) {
      const settled = w.catch((err: unknown) => log.error({ err, callId }, `agent: could not ${what}`)).finally(() => writes.delete(settled));
      writes.add(settled);
    },
    async written() {
      while (writes.size) await Promise.all([...writes]);
    },
  };
}
