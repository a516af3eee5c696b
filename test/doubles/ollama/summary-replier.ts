import type { OllamaRequest } from './server.js';

/** Polish's own letters: enough to tell a Polish transcript from an English one in these tests. */
const POLISH = /[ąćęłńśźż]/i;

/**
 * The post-call summary as a small model writes it: in the language its prompt asks for
 * ("Write the summary in English"), and otherwise in the language of the transcript it was
 * given, as llama3.2 does with a Polish call. `summaries` holds each language's answer.
 */
export function summaryInAskedLanguage(summaries: { English: string; Polish: string }): (req: OllamaRequest) => string {
  return (req) => {
    const msgs = req.body.messages as Array<{ role: string; content: string }>;
    const asked = /Write the summary in (English|Polish)/.exec(msgs[0]?.content ?? '')?.[1] as 'English' | 'Polish' | undefined;
    const language = asked ?? (POLISH.test(msgs.at(-1)?.content ?? '') ? 'Polish' : 'English');
    return JSON.stringify({ summary: summaries[language], urgency: 'normal', urgencyReason: '', callClass: 'genuine', wantsBooking: false });
  };
}
