// Call-backs the agent makes (issue 56): the closed sets of words the call_backs table, its
// routes and the console share, and the owner's setting. (contract/callback.ts is the older rule
// of which calls still wait for the owner to ring back; this is the agent's own call-back list.)

/** Where the caller's wish came from: asked in an agent call, in a voicemail, by a CALL reply to the missed-call text, or the owner's window ran out. */
export const CALL_BACK_SOURCES = ['agent', 'voicemail', 'text-reply', 'owner-window'] as const;
export type CallBackSource = (typeof CALL_BACK_SOURCES)[number];

/**
 * Where a call-back is: waiting for its time, being dialled, answered by the caller, the agent's
 * tries ran out with no answer, done by the owner (rang them first, or took it), or cancelled.
 */
export const CALL_BACK_STATES = ['waiting', 'calling', 'answered', 'no-answer', 'done', 'cancelled'] as const;
export type CallBackState = (typeof CALL_BACK_STATES)[number];

/** How one try ended. */
export const CALL_BACK_OUTCOMES = ['answered', 'no-answer', 'busy', 'machine', 'wrong-number', 'not-interested', 'failed'] as const;
export type CallBackOutcome = (typeof CALL_BACK_OUTCOMES)[number];

/** Who closed it: the agent (its call or its last try), the owner (rang first or took it), or the owner's cancel. */
export const CALL_BACK_DONE_BY = ['agent', 'owner', 'owner-cancelled'] as const;

/**
 * The owner's choice per business (Call handling): they ring callers back themselves (as before
 * issue 56), the agent rings when the owner has not within N minutes, or the agent rings at the
 * time agreed with the caller.
 */
export const CALL_BACKS_BY = ['owner', 'agent-after', 'agent-at-time'] as const;
export type CallBacksBy = (typeof CALL_BACKS_BY)[number];

/** The owner's window for 'agent-after', in minutes. */
export const CALL_BACK_AFTER_MINUTES = { default: 15, min: 5, max: 240 } as const;
