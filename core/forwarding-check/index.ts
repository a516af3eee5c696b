// "Check my forwarding" (issue 28): the appliance calls the owner's business line over the
// outbound trunk, showing their own appliance number as the caller ID, and waits for the call to
// come back forwarded to that number. The PBX places and recognises the calls; this folder keeps
// the checks' state (in the database: the forwarded call may reach another core) and reads the
// Diversion header.
import { storedNumber } from '../../contract/phone.js';
import type { Db } from '../db/client.js';
import { eq } from 'drizzle-orm';
import { tablesOf } from '../db/schema.js';
import { looksLikeForwardingCheck, type ForwardingChecks } from '../ports/forwarding-check.js';
import { forwardingCheckArrived, forwardingCheckUnreached, openForwardingCheck, pendingForwardingCheck } from './store.js';

export { forwardingCheckInProgress, readForwardingCheck } from './store.js';

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
