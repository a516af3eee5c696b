// The one-line summaries of the Answering section's cards on a phone, where each card is closed
// to its heading and what it holds (issue 57: 5.8 screens at 375 px). Pure: from the section's
// values, so a summary always says what a save would send.
import type { AiMode } from '../../../contract/api';
import { LANGUAGE_NAMES, type AgentLanguage } from '../../../contract/languages';

export interface AnsweringValues {
  aiMode: AiMode;
  knowledgeBase: string;
  /** Besides English, which every line falls back to. */
  agentLanguages: readonly string[];
  greetingLanguages: readonly string[];
  /** The languages with a saved recording of the owner's own greeting. */
  greetingRecordings: readonly string[];
  /** Whether the owner recorded their own voicemail greeting. */
  voicemailGreetingRecording: boolean;
}

const nameOf = (code: string) => LANGUAGE_NAMES[code as AgentLanguage] ?? code;

/** "English", "English and Polish", "English, Polish and Welsh". */
function list(codes: readonly string[]): string {
  const names = codes.map(nameOf);
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** "Q:" at the start of a line begins an entry (the field's own hint). */
function knowledgeEntries(kb: string): number {
  return kb.match(/^\s*Q:/gim)?.length ?? 0;
}

export function answeringSummaries(v: AnsweringValues) {
  const agent = v.aiMode === 'agent';
  const languages = ['en', ...v.agentLanguages.filter((c) => c !== 'en')];
  const greeting = v.greetingLanguages.length > 0 ? v.greetingLanguages : ['en'];
  // The agent plays a language's recorded line; voicemail its own recording.
  const ownVoice = agent ? greeting.some((c) => v.greetingRecordings.includes(c)) : v.voicemailGreetingRecording;
  const entries = knowledgeEntries(v.knowledgeBase);
  return {
    mode: `${agent ? 'AI Voice Agent' : 'Voicemail Only'} · ${ownVoice ? 'greeting in your voice' : 'spoken greeting'}`,
    knowledgeBase:
      entries > 0
        ? `${entries} ${entries === 1 ? 'question' : 'questions'} answered`
        : v.knowledgeBase.trim()
          ? `${v.knowledgeBase.trim().length} characters, no "Q:" entries yet`
          : 'Empty: the agent can only take messages',
    languages: `Answers in ${list(languages)} · greeting in ${list(greeting)}`,
  };
}
