// "Check my forwarding" between the core and the PBX: what the core's route asks the PBX to place
// (ForwardingCheckStart, startPbx's), what the PBX asks of the checks' state
// (ForwardingChecks, a part of CallPath), and the one rule both sides recognise a check by.
import { storedNumber } from '../../contract/phone.js';

/**
 * Whether a call could be a check coming back: it shows the appliance number it was made to as
 * its caller ID, which is what the check's call showed and what a carrier keeps when it forwards.
 */
export function looksLikeForwardingCheck(callerNumber: string, did: string): boolean {
  return storedNumber(callerNumber) === storedNumber(did);
}

/**
 * "Check my forwarding": the PBX calls the owner's business line `line` from their appliance
 * number and returns once the call is out; the check's row says how it ends. Returned by
 * startPbx when it can call out (OUTBOUND_ENDPOINT).
 */
export type ForwardingCheckStart = (userId: number, line: string) => Promise<ForwardingCheckStartResult>;

export type ForwardingCheckStartResult =
  | { kind: 'started'; id: number }
  | { kind: 'no-phone-number' }
  | { kind: 'pbx-down' }
  /** The trunk refused the call at once. */
  | { kind: 'not-placed' };

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
