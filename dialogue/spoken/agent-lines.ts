import { en } from '../language/catalogue/en.js';
import { fixedLines } from '../language/fixed-lines.js';

// The agent's fixed lines in English, by the names the flows and tests use; the words are the
// English catalogue's (dialogue/language/catalogue/en.ts), the other languages' beside it.

export const AGENT_LINES = en.agent;

export function agentGreeting(businessName: string | null | undefined): string {
  return fixedLines('en').greeting(businessName);
}

export function agentGoodbye(businessName: string | null | undefined): string {
  return fixedLines('en').goodbye(businessName);
}
