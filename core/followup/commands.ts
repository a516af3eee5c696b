// The commands an owner can text back to a call summary, and the plain-English answers.
// Pure: parsing and wording only; core/followup/run-command.ts does the work.

export type OwnerCommand =
  | { kind: 'done'; ref: number | null }
  | { kind: 'call'; ref: number | null }
  | { kind: 'kb'; answer: string }
  | { kind: 'agent'; on: boolean | null }
  | { kind: 'spam'; spam: boolean; ref: number | null }
  | { kind: 'help' }
  | { kind: 'unknown' };

/** The reference a summary text ends with: the call's id, short enough to type on a phone. */
export function referenceLine(callId: number): string {
  return `Reply DONE ${callId} when called back.`;
}

/** "41", "#41", "ref 41": the call reference after DONE or CALL; null when there is none. */
function readRef(rest: string): number | null {
  const m = /^(?:ref\s*)?#?\s*(\d{1,12})\s*[.!]?$/i.exec(rest.trim());
  return m ? Number(m[1]) : null;
}

/**
 * Reads an owner's text: the first word is the command, case-insensitive; everything after
 * KB is the answer as typed (line breaks kept). Anything else is unknown (answered with HELP).
 */
export function parseCommand(body: string): OwnerCommand {
  const text = body.trim();
  const m = /^([a-z]+)\b\s*([\s\S]*)$/i.exec(text);
  if (!m) return { kind: 'unknown' };
  const word = m[1]!.toUpperCase();
  const rest = m[2] ?? '';
  switch (word) {
    case 'DONE':
      return { kind: 'done', ref: readRef(rest) };
    case 'CALL':
      return { kind: 'call', ref: readRef(rest) };
    case 'KB':
      return { kind: 'kb', answer: rest.trim() };
    case 'AGENT': {
      const mode = rest.trim().replace(/[.!]$/, '').toUpperCase();
      return { kind: 'agent', on: mode === 'ON' ? true : mode === 'OFF' ? false : null };
    }
    case 'SPAM':
      return { kind: 'spam', spam: true, ref: readRef(rest) };
    case 'NOT': {
      // "NOT SPAM 41", "not spam #41"
      const m = /^spam\b\s*([\s\S]*)$/i.exec(rest.trim());
      return m ? { kind: 'spam', spam: false, ref: readRef(m[1] ?? '') } : { kind: 'unknown' };
    }
    case 'HELP':
      return { kind: 'help' };
    default:
      return { kind: 'unknown' };
  }
}

export const HELP_TEXT =
  'Reply DONE 41 when you have called back call 41, CALL 41 for its caller\'s number, KB and your answer to add it to the latest unanswered question, AGENT ON or AGENT OFF to switch your AI receptionist, SPAM 41 to screen the caller of call 41 from now on (NOT SPAM 41 to always let it through), HELP for this list.';

export const REPLIES = {
  help: HELP_TEXT,
  unknown: `Sorry, that is not a command I know. ${HELP_TEXT}`,
  missingRef: (word: 'DONE' | 'CALL' | 'SPAM' | 'NOT SPAM') => `Please add the call's reference from the text, e.g. ${word} 41.`,
  noSuchCall: (ref: number) => `There is no call ${ref} on your account. Check the number at the end of the text.`,
  markedDone: (ref: number, caller: string) => `Call ${ref} from ${caller} is marked as called back.`,
  alreadyDone: (ref: number) => `Call ${ref} was already marked as called back.`,
  callBack: (number: string) => `Tap to call them back: tel:${number}`,
  withheld: (ref: number) => `Call ${ref} came from a withheld number, so it cannot be called back.`,
  kbMissing: 'Please put your answer after KB, e.g. KB We open at 8am on Saturdays.',
  kbNoQuestion: 'There is no unanswered question waiting for an answer.',
  kbFull: 'Your knowledge base is full (50,000 characters). Shorten it under Notification Settings first.',
  kbRefused: (problem: string) => `That answer was not added: ${problem}.`,
  kbAdded: (question: string) => `Added to your knowledge base as the answer to "${question}".`,
  spamWithheld: (ref: number) => `Call ${ref} came from a withheld number, so there is no number to screen.`,
  markedSpam: (ref: number, caller: string) => `${caller} (call ${ref}) is marked as spam: their next calls are screened before they reach you. Reply NOT SPAM ${ref} to undo.`,
  markedNotSpam: (ref: number, caller: string) => `${caller} (call ${ref}) is marked as not spam: their calls always reach you.`,
  agentWhich: 'Please reply AGENT ON or AGENT OFF.',
  // From a team member's phone (issue 58): what their rights do not cover, said plainly.
  notYours: (ref: number) => `Call ${ref} is for someone else in your team, so it was left as it was. Ask the owner to act on it.`,
  kbNotAllowed: 'Only the owner, or a team member who can see every call, can add answers to the knowledge base.',
  agentOwnerOnly: 'Only the owner can switch the AI receptionist on or off.',
  agentOn: 'Your AI receptionist is on: it will answer your calls from now on.',
  agentOff: 'Your AI receptionist is off: callers can leave you a voicemail.',
} as const;
