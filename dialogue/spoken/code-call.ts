// What a team member's landline hears when its confirmation code is read out (issue 58 item 1):
// a landline takes no texts, so the code a mobile gets by text is said instead. English only, as
// the owner's briefing is: nobody's language is known on a call the appliance places. The words
// live here rather than in the shared catalogue: one line, said only by pbx/flows/code-call/.

/**
 * "This is Hale Plumbing's answering service. Your code is 4, 8, 1, 2, 0, 7. Again: 4, 8, 1, 2, 0, 7."
 * Each digit on its own, with a pause between (the commas), so "48" is never read "forty-eight".
 */
export function codeCallLine(businessName: string | null, code: string): string {
  const business = businessName?.trim();
  const digits = code.split('').join(', ');
  const who = business ? `This is ${business}'s answering service.` : 'This is your answering service.';
  return `${who} Your code is ${digits}. Again: ${digits}.`;
}
