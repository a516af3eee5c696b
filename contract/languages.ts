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
