// The languages the agent can answer callers in (issue 42), shared by the server and the
// console's settings: whisper's codes (ISO 639-1 for all of these) and the names owners read.

export const AGENT_LANGUAGES = ['en', 'pl', 'ro', 'pa', 'ur', 'pt', 'es', 'cy'] as const;
export type AgentLanguage = (typeof AGENT_LANGUAGES)[number];

export const LANGUAGE_NAMES: Readonly<Record<AgentLanguage, string>> = {
  en: 'English',
  pl: 'Polish',
  ro: 'Romanian',
  pa: 'Panjabi',
  ur: 'Urdu',
  pt: 'Portuguese',
  es: 'Spanish',
  cy: 'Welsh',
};

/**
 * The agent's fixed lines an owner can hear in each language and voice (the console's line
 * preview, POST /api/agent/line-preview): the project's own wording (dialogue/language/catalogue/<code>.ts).
 */
export const PREVIEW_LINES = {
  greeting: 'Greeting',
  switched: 'Switching to the language',
  holding: 'Holding phrase',
  notAnswered: 'Not in the knowledge base',
  takeMessage: 'Taking a message',
  messageTaken: 'Message taken',
  engineFailure: 'Voicemail offer',
  didNotCatch: 'Did not catch that',
  silencePrompt: 'Are you still there?',
  goodbye: 'Goodbye',
} as const;
export type PreviewLine = keyof typeof PREVIEW_LINES;
