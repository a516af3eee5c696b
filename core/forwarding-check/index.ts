// "Check my forwarding" (issue 28): the appliance calls the owner's business line over the
// outbound trunk, showing their own appliance number as the caller ID, and waits for the call to
// come back forwarded to that number. The PBX places and recognises the calls; this folder keeps
// the checks' state (in the database: the forwarded call may reach another core) and reads the
// Diversion header.
import { storedNumber } from '../../contract/phone.js';
import type { Db } from '../db/client.js';
import { eq } from 'drizzle-orm';
import { tablesOf } from '../db/schema.js';
import { forwardingCheckArrived, forwardingCheckUnreached, openForwardingCheck, pendingForwardingCheck } from './store.js';

export { forwardingCheckInProgress, readForwardingCheck } from './store.js';

/**
 * Whether a call could be a check coming back: it shows the appliance number it was made to as
 * its caller ID, which is what the check's call showed and what a carrier keeps when it forwards.
 */
export function looksLikeForwardingCheck(callerNumber: string, did: string): boolean {
  return storedNumber(callerNumber) === storedNumber(did);
}

/** What the PBX asks of the checks' state (a part of CallPath). */
export interface ForwardingChecks {
  /** The check waiting for this call, when it is one: from the appliance number to itself, while a check of that number waits. */
  recognise(did: string, callerNumber: string, now: Date): Promise<{ id: number; userId: number } | undefined>;
  /** The check's call came back with these Diversion header values (top first): it works. False if it had already ended. */
  arrived(id: number, diversionHeaders: readonly (string | null)[], now: Date): Promise<boolean>;
  open(c: { userId: number; did: string; line: string; startedAt: Date; endsAt: Date }): Promise<number>;
  /** Whether it still waits ('calling'); undefined when there is no such check. */
  state(id: number): Promise<'calling' | 'works' | 'not-reaching' | undefined>;
  unreached(id: number, now: Date): Promise<void>;
}

export function createForwardingChecks(db: Db): ForwardingChecks {
  const { forwardingChecks } = tablesOf(db);
  return {
    async recognise(did, callerNumber, now) {
      if (!looksLikeForwardingCheck(callerNumber, did)) return undefined;
      return pendingForwardingCheck(db, storedNumber(did), now);
    },
    arrived: (id, headers, now) => forwardingCheckArrived(db, id, headers, now),
    open: (c) => openForwardingCheck(db, c),
    async state(id) {
      const [row] = await db.select({ state: forwardingChecks.state }).from(forwardingChecks).where(eq(forwardingChecks.id, id)).limit(1);
      return row?.state;
    },
    unreached: (id, now) => forwardingCheckUnreached(db, id, now),
  };
}
