import type { CallMode } from '../../contract/enums.js';
import type { LiveLinePurpose } from '../ports/live-listen.js';

// Whether a live call may be listened to or taken over now, as pure rules: the routes read the
// call's row and ask the PBX, this says yes or why not (status and words the console shows).

const CALL_NOT_FOUND = 'Call not found.';

/** What the routes know of the call (its row, scoped to the business) and of the node. */
export interface LiveCallFacts {
  /** Undefined: not this business's call (or outside a staff member's view), answered as a missing one. */
  call?: { endedAt: Date | null; mode: CallMode; channelId: string | null; node: string; takenOverBy: string | null };
  /** This core's node (NODE_NAME): only the node that holds a call can bridge it. */
  node: string;
  /** False: no PBX connection on this core (ARI_URL unset). */
  pbx: boolean;
  /** The node's admission rule says no more work now (its reason), or undefined. */
  full: string | undefined;
  /** For a take-over: why the agent cannot hand over now (from the PBX), or undefined. */
  agent?: string;
}

export interface Refusal {
  status: 404 | 409 | 503;
  message: string;
}

export function liveRefusal(purpose: LiveLinePurpose, f: LiveCallFacts): Refusal | undefined {
  const { call } = f;
  // Someone else's call answers exactly like a missing one: ids do not leak.
  if (!call) return { status: 404, message: CALL_NOT_FOUND };
  if (call.endedAt) return { status: 409, message: 'This call has ended.' };
  const doing = purpose === 'listen' ? 'listened to' : 'taken over';
  if (!f.pbx) return { status: 503, message: `Calls cannot be ${doing} here: the core is not connected to the phone system (ARI_URL).` };
  if (!call.channelId || call.node !== f.node) return { status: 409, message: `This call is on another node of the box (${call.node}), so it cannot be ${doing} from this one. Open the console on that node, or try again from the Live page.` };
  if (purpose === 'take-over' && call.takenOverBy) return { status: 409, message: `This call has already been taken over by ${call.takenOverBy}.` };
  if (purpose === 'take-over' && call.mode !== 'agent') return { status: 409, message: 'Only a call the assistant is answering can be taken over.' };
  // The node's own rule for new callers: a listener or an owner's leg is one more channel on it.
  if (f.full) return { status: 503, message: `The box is at its limit of calls just now, so it cannot ${purpose === 'listen' ? 'add a listener' : 'put the call through to you'}. Try again in a minute.` };
  if (purpose === 'take-over' && f.agent) return { status: 409, message: f.agent };
  return undefined;
}

/** The name the call's history and row keep for who acted: a staff member's own, or the owner. */
export function actorName(staff: { name: string } | null): string {
  return staff?.name.trim() || 'the owner';
}

/** The name the agent says in its handover line: the staff member's, else the business's, else "the owner". */
export function spokenName(staff: { name: string } | null, businessName: string | null): string {
  return staff?.name.trim() || businessName?.trim() || 'the owner';
}
