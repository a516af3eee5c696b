// The first-run checklist on Call Logs: each step is ticked by what the server already knows,
// never by the owner clicking it.

import { isUkLandline } from '../../../contract/phone-display';

export interface FirstRunState {
  hasNumber: boolean;
  /** Call texts have a confirmed number to go to (or the owner wants none). */
  textsConfirmed: boolean;
  /** The only number for texts is the landline given at sign-up: a mobile is needed (issue 57 item 6). */
  textsOnLandline?: boolean;
  hasCalls: boolean;
  aiMode: 'voicemail' | 'agent';
  callGreeting: string | null;
  /** People in the business as said at sign-up (issue 58); null or absent: not asked. */
  teamSize?: number | null;
  /** The team has someone besides the owner. */
  hasTeam?: boolean;
}

export type StepId = 'texts' | 'number' | 'forwarding' | 'call-from-phone' | 'mode' | 'team';

export interface Step {
  id: StepId;
  label: string;
  done: boolean;
}

export function firstRunSteps(s: FirstRunState): Step[] {
  const steps: Step[] = [
    // The sign-up phone gets summaries only once its code (texted at approval) comes back.
    { id: 'texts', label: s.textsOnLandline ? 'Add a mobile for call texts' : 'Confirm your number for call texts', done: s.textsConfirmed },
    { id: 'number', label: 'Get your number', done: s.hasNumber },
    // Forwarding happens on the owner's own phone; the first call reaching the number proves it.
    { id: 'forwarding', label: 'Set up call forwarding', done: s.hasCalls },
    { id: 'call-from-phone', label: 'Make a test call from another phone', done: s.hasCalls },
    // Voicemail is the default; choosing means the agent, or a greeting of the owner's own.
    { id: 'mode', label: 'Choose voicemail or AI agent', done: s.aiMode === 'agent' || Boolean(s.callGreeting?.trim()) },
  ];
  // Only for a business that said at sign-up it is more than one person.
  if ((s.teamSize ?? 0) > 1) steps.push({ id: 'team', label: 'Add your team', done: Boolean(s.hasTeam) });
  return steps;
}

/**
 * Whether the checklist is shown at all. It retires once a call has arrived: the line answers,
 * and an owner reading their calls needs them first, not set-up steps (the mode step alone is
 * no reason to stay, voicemail being a fine choice). Under "Your line is not answering calls"
 * it would send the owner testing a line that cannot answer. The owner's own "Call my line"
 * from the console does not count: it proves neither forwarding nor a caller's way in.
 */
export function showFirstRun(s: { hasCalls: boolean; lineNotAnswering: boolean }): boolean {
  return !s.hasCalls && !s.lineNotAnswering;
}

/**
 * The landline given at sign-up when it is all call texts have to go to: no code goes to a
 * landline (the server refuses it), so the owner is asked for a mobile instead. Null otherwise.
 */
export function textsLandline(user: { phoneNumber: string | null; notificationNumber: string | null }, smsCodePending: boolean): string | null {
  return !user.notificationNumber && !smsCodePending && isUkLandline(user.phoneNumber) ? user.phoneNumber : null;
}
