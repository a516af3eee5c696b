import type { LiveMode } from '../../contract/schemas/live.js';

// Live calls (issue 54): what the PBX tells the core's registry of calls in progress on this node
// (core/live/registry.ts), and the one thing the core asks of the PBX for them (ending one).
// A call's start, its person and its end reach the registry through CallPath (openCall,
// attributeCall, finishCall: core/live/live-call-path.ts wraps them), so the PBX adds only what
// CallPath never carried: the words as they are said, and a put-through.


/** One line of the dialogue as the stored transcript has it before its lines are joined: the caller's words as recognised, an agent sentence as the caller heard it. */
export interface LiveLine {
  speaker: 'caller' | 'agent';
  text: string;
}

/** What the PBX reports while a call goes on; each is fire-and-forget (the call never waits for the console). */
export interface LiveCallFeed {
  /**
   * The agent's dialogue so far, every time it changes: the same lines the stored transcript is
   * made of (pbx/flows/agent/transcript.ts), so the registry joins and redacts them exactly as it does.
   */
  transcript(callId: number, lines: readonly LiveLine[]): void;
  /** The call is now in another mode (put through to a person). */
  mode(callId: number, mode: LiveMode): void;
}

/** The PBX's side of End call: hangs the caller's channel up as a normal hang-up; false when the call is not on this node any more. */
export interface LiveCallControl {
  end(callId: number): Promise<boolean>;
}
