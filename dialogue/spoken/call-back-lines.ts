// What the agent says on a call-back it places (issue 56), in English: fixed words, never a
// model's. The opening is said once, before the conversation: who is calling, that it is the
// business's AI assistant calling back as asked, and that the call is recorded (the disclosure an
// inbound caller hears in the greeting). The machine's message is core/call-backs/texts.ts's.

/** The first words a person hears when they pick up a call-back. */
export function callBackOpening(businessName: string | null): string {
  const business = businessName?.trim();
  return business
    ? `Hello, this is ${business}'s AI assistant calling you back as you asked. This call is recorded.`
    : 'Hello, this is the AI assistant calling you back as you asked. This call is recorded.';
}

/** Said once when the called party says it is the wrong number or that they never asked; then the call ends. */
export const CALL_BACK_WRONG_NUMBER = "I'm sorry to have troubled you. We won't call again. Goodbye.";

/** Said once when the called party is not interested any more; then the call ends. */
export const CALL_BACK_NOT_INTERESTED = "Of course, sorry to have bothered you. We won't call again. Goodbye.";

/** What the model is told the caller wanted (the first call's summary), so it goes on from their own words. */
export function callBackContext(firstCallSummary: string | null): string {
  const wanted = firstCallSummary?.trim();
  return wanted
    ? `This is a call-back the caller asked for: you rang them. On their first call they wanted: ${wanted}. Go on from that; do not ask them to repeat it all.`
    : 'This is a call-back the caller asked for by text: you rang them. Ask how you can help.';
}
