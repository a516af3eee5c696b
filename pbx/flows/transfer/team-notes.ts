// What the team's ringing and the voicemail menu did with a call, in the words Call Details
// shows (calls.routing_note). Pure.

/** Ring-first: the member whose phone took the call. */
export function answeredByNote(name: string): string {
  return `Answered by ${name}`;
}

/** Ring-first: nobody's phone took the call, so the agent or voicemail answered. */
export const NOBODY_ANSWERED_NOTE = 'Rang the team: nobody answered';

/** What became of a caller who pressed a member's key in the voicemail menu. */
export type PressedOutcome = 'put-through' | 'not-working' | 'no-answer';

export function pressedNote(digit: string, name: string, outcome: PressedOutcome): string {
  const asked = `Pressed ${digit} for ${name}`;
  switch (outcome) {
    case 'put-through':
      return `${asked}: put through to ${name}`;
    case 'not-working':
      return `${asked}: not working now, message taken for ${name}`;
    case 'no-answer':
      return `${asked}: did not take the call, message taken for ${name}`;
  }
}
