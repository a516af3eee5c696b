// Shared by the voicemail flow (pbx) and the console's "Play greeting" preview (core), so both say the same words.
// SPEC.md §2 Call Greeting: custom greeting, else the business-name template, else a
// generic default. Every version tells the caller the call is recorded (UK practice).

export const GENERIC_GREETING =
  "Thank you for calling. We can't take your call right now. For quality purposes, this call is being recorded. Please leave your name, number and message after the tone.";

export function businessGreeting(businessName: string): string {
  return `You've reached ${businessName}. For quality purposes, this call is being recorded. Please leave your name and message after the tone.`;
}

export function chooseGreeting(owner: { callGreeting: string | null; businessName: string | null }): string {
  const custom = owner.callGreeting?.trim();
  if (custom) return custom;
  const name = owner.businessName?.trim();
  if (name) return businessGreeting(name);
  return GENERIC_GREETING;
}
