// The console's "Test transfer" between the core and the PBX: the call the core's route asks the
// PBX to place (startPbx's, when it can call out).
import type { TransferOutcome } from '../../contract/call-handling.js';

/** Rings an owner's transfer number as a test: returned by startPbx when it can call out (OUTBOUND_ENDPOINT). */
export type TestTransfer = (userId: number) => Promise<TestTransferResult>;

/** What became of a test call to the owner's phone. */
export type TestTransferResult =
  | { kind: 'rang'; outcome: 'answered' | TransferOutcome; number: string; ringSeconds: number }
  | { kind: 'no-transfer-number' }
  | { kind: 'no-phone-number' }
  | { kind: 'pbx-down' };
