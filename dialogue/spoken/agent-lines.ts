import { businessLabel } from '../agent/agent-prompt.js';

// The fixed things the agent says. Fixed rather than generated: the disclosure and the
// admissions must be said the same way every time, whatever the model does.

/** The greeting's disclosure sentence (fixed-lines.ts `disclosure`). */
export const AGENT_DISCLOSURE = "I'm an automated assistant, and this call is recorded.";

export function agentGreeting(businessName: string | null | undefined): string {
  const n = businessName?.trim();
  const reached = n ? `Hello, you've reached ${n}.` : 'Hello, thank you for calling.';
  // Disclosure first: automated assistant and recording (the requirement).
  return `${reached} ${AGENT_DISCLOSURE} How can I help you today?`;
}

export const AGENT_LINES = {
  /** Said when the knowledge base does not cover the question. */
  notAnswered: "I'm sorry, I don't have that information. I can take a message so the team can get back to you. Would you like to leave one?",
  human: "I'm afraid I can't put you through to someone right now, but I can take a message and they'll get back to you. What would you like me to pass on?",
  takeMessage: 'Of course. Please go ahead with your message, and include your name.',
  /** Urgent, and nobody can be put through: the message goes to the owner straight away. */
  urgentMessage: "I understand it's urgent. Please tell me your name, your number and what has happened, and I'll pass it on straight away.",
  /** After the owner could not take a put-through call ("Sorry, they can't take your call right now" was said). */
  afterTransfer: "Can I take a message instead? Please tell me your name and what it's about, and they'll get back to you.",
  messageTaken: "Thank you, I'll pass that on. Is there anything else I can help with?",
  silencePrompt: 'Are you still there? How can I help?',
  silenceGoodbye: "I can't hear anything, so I'll end the call now. Please call back any time. Goodbye.",
  /** The language model failed or stalled mid-call: fall back to taking a voicemail (the tone follows), nothing is lost. */
  engineFailure:
    "I'm sorry, I'm having trouble answering questions right now. Please leave your name and message after the tone, and the team will get back to you.",
  voicemailThanks: 'Thank you. Your message has been recorded. Goodbye.',
  /** The engines serve all the conversations they can: said instead of the greeting, then the tone and voicemail. */
  allBusy: 'All our assistants are busy, please leave a message after the tone.',
  /** Said when the engines are slow to answer, so the caller never waits in silence (pbx/flows/agent/stall-rule.ts). */
  holding: 'Bear with me a moment.',
  didNotCatch: "Sorry, I didn't catch that. Could you say it again?",
} as const;

export function agentGoodbye(businessName: string | null | undefined): string {
  return `Thank you for calling ${businessLabel(businessName)}. Goodbye.`;
}
