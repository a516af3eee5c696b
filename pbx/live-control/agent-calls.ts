import type { CallSession } from '../call-session.js';

// The agent calls in progress on this node that an owner may take over (issue 54), registered by
// the agent flow (pbx/flows/agent/agent-flow.ts, one call to offerTakeOver) and read by the live
// control (live-control.ts). Knows nothing of ARI: each call says how its agent leaves.

export interface AgentCallHandle {
  callId: number;
  userId: number;
  /** The agent's mixing bridge, recorded for the whole call: the owner joins it, so the recording carries on. */
  bridgeId: string;
  caller: CallSession;
  /** Why the agent cannot hand over now (a put-through ringing the owner's phone), or undefined. */
  busy(): string | undefined;
  /**
   * The agent says its handover line (naming `spokenName`) in the caller's language, then leaves
   * for good: its speech stops and its media channel leaves the bridge. Resolves once it has.
   */
  handOver(spokenName: string): Promise<void>;
  /** Places a call to the owner's phone for this caller (the transfer flow's dialling and outbound rules); undefined without one. */
  dialOwnerPhone?(): Promise<OwnerPhoneLeg | undefined>;
}

/** The owner's phone, answered, ready to bridge; `close` ends it and forgets it. */
export interface OwnerPhoneLeg {
  session: CallSession;
  close(): Promise<void>;
}

export class AgentCalls {
  private readonly calls = new Map<number, AgentCallHandle>();
  /** Calls taken over (or being): a second take-over is refused, and the agent never comes back. */
  private readonly taken = new Set<number>();

  /** Registered while the agent holds the call; the returned function unregisters it. */
  register(handle: AgentCallHandle): () => void {
    this.calls.set(handle.callId, handle);
    return () => {
      if (this.calls.get(handle.callId) === handle) this.calls.delete(handle.callId);
      this.taken.delete(handle.callId);
    };
  }

  get(callId: number): AgentCallHandle | undefined {
    return this.calls.get(callId);
  }

  /** Why this call cannot be taken over here now, in words for the owner; undefined: it can. */
  refusal(callId: number): string | undefined {
    const call = this.calls.get(callId);
    if (!call) return 'The assistant is not answering this call any more, so there is nothing to take over.';
    if (this.taken.has(callId)) return 'This call is already being taken over.';
    return call.busy();
  }

  /** Claims the call for one take-over: false when another has it (or the agent has gone). */
  claim(callId: number): AgentCallHandle | undefined {
    if (this.refusal(callId) !== undefined) return undefined;
    this.taken.add(callId);
    return this.calls.get(callId);
  }

  /** A take-over that did not happen (the owner's phone not answered): the agent carries on. */
  unclaim(callId: number): void {
    this.taken.delete(callId);
  }

  get size(): number {
    return this.calls.size;
  }
}
