import type { ConversationSlot } from '../agent/admission.js';
import { refusalReason, type AdmissionLimits, type NodeLoad } from '../../admission/admission-rule.js';

// Issue 56, "inbound always wins": a call-back takes an agent engine slot only when, after taking
// it, `reserve` slots stay free for callers ringing in. The pools admit by counters only, so the
// spare slots are claimed and given straight back: a probe, with no I/O and nothing held.

/** Slots kept free for inbound callers whenever a call-back is placed. */
const INBOUND_RESERVE = 1;

/** A slot for a call-back, or null (nothing held) when taking one would leave fewer than `reserve` free. */
export function admitLeavingSpare(admit: () => ConversationSlot | null, reserve = INBOUND_RESERVE): ConversationSlot | null {
  const slot = admit();
  if (!slot) return null;
  const spare: ConversationSlot[] = [];
  try {
    for (let i = 0; i < reserve; i++) {
      const s = admit();
      if (!s) {
        slot.release();
        return null;
      }
      spare.push(s);
    }
    return slot;
  } finally {
    for (const s of spare) s.release();
  }
}

/**
 * Why the node may not place a call-back now, or undefined. The node's own admission rule
 * (ADMISSION_*: calls in progress, event-loop lag, post-call jobs waiting) judged as if the
 * call-back were already in progress and the reserve's callers were arriving: a call-back is
 * placed only where they would still be answered.
 */
export function callBackRefusal(load: NodeLoad, limits: AdmissionLimits, reserve = INBOUND_RESERVE): string | undefined {
  return refusalReason({ ...load, activeCalls: load.activeCalls + reserve }, limits);
}
