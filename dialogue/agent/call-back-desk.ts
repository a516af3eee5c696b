// The seam between the agent (turn-policy.ts, pbx/flows/agent) and the call-backs the core keeps
// (issue 56; core/call-backs-wish implements it). The agent never computes a time: it hands the
// desk the caller's own words and says back, verbatim, the sentence the desk returns (the time
// code agreed, or that the owner is told). The desk records the wish before it answers.

export interface CallBackDesk {
  /** Agrees a time from the caller's words and records the wish; the one sentence the agent says. */
  agree(words: string): Promise<string>;
}

/** The call a desk serves; the desk is undefined when the owner rings their callers back themselves. */
interface CallBackCall {
  userId: number;
  callId: number;
  callerNumber: string;
}

export type CallBackDeskFactory = (call: CallBackCall) => Promise<CallBackDesk | undefined>;
