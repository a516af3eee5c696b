// The put-through's shapes, apart from the flow so the flows' shared context (pbx/flows/types.ts)
// can name them without importing the flow that imports it.
import type { TransferOutcome } from '../../../contract/call-handling.js';
import type { CallSession } from '../../call-session.js';
import type { LegPresents } from './leg-caller-id.js';

/**
 * The Stasis app's registry of the calls it places: their events reach the session opened
 * here. It also keeps the trunk honest (core/outbound): whether an owner's phone may be
 * called now, and, for each call placed, how long it held the trunk.
 */
export interface OwnerLegs {
  /** `did`: the business number the leg is placed for, when it is not a transfer's (a call-back). */
  open(channelId: string, number: string, did?: string): CallSession;
  /**
   * Why the appliance may not call `number` for this owner now (account, number kind, daily
   * cap), or how long the call may last once answered (PUT_THROUGH_MAX_SECONDS, or what is
   * left of today's minutes).
   */
  permit(userId: number, number: string): Promise<{ refused: string } | { answeredSeconds: number }>;
  /** Asterisk took the call: from now it counts towards the owner's daily minutes as `heldSeconds` (the longest it may last), until close() counts what it took. */
  placed(channelId: string, userId: number, heldSeconds: number): void;
  close(channelId: string): void;
}

export interface TransferDeps {
  legs: OwnerLegs;
  /** The Stasis app owner legs are placed in (the core's own). */
  app: string;
  /** OUTBOUND_ENDPOINT. */
  endpointTemplate: string;
  /** OUTBOUND_PRESENT_CALLER: the caller's number or the appliance number on a person's phone (leg-caller-id.ts). */
  presents: LegPresents;
  timing?: Partial<TransferTiming>;
}

export interface TransferTiming {
  /** After the briefing, how long the owner has to press a key before it is said once more. */
  keyWaitMs: number;
  /** After the reminder, the last wait for a key. */
  lastKeyWaitMs: number;
}

export const DEFAULT_TRANSFER_TIMING: TransferTiming = { keyWaitMs: 6000, lastKeyWaitMs: 6000 };

export interface TransferRequest {
  /** The owner's number, E.164. */
  to: string;
  ringSeconds: number;
  /** What the caller said so far (agent mode), for the briefing. */
  callerWords?: string;
  /** The agent's bridge when the caller is already in one: the owner joins it and its recording carries on. */
  bridgeId?: string;
}

export interface TransferResult {
  outcome: TransferOutcome;
  /** Seconds the caller and the owner were connected. */
  talkSeconds: number;
  /** performance.now() marks for the benchmark: owner's phone dialled, owner's key, bridged. */
  marks: { dialledAt?: number; keyAt?: number; bridgedAt?: number };
}
