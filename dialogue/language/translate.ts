import type { ReplyStreamer } from '../../models/llm/language-model.js';
import { ENGLISH_NAMES, type LanguageCode } from './languages.js';

// The owner reads English: a caller's words in another language are translated by the same
// local model that answers them, for the questions log and the transcript.

function translationMessages(text: string, language: LanguageCode) {
  return [
    {
      role: 'system' as const,
      content: `Translate what a caller said on the phone from ${ENGLISH_NAMES[language]} into plain UK English. Reply with the English translation only: no notes, no quotation marks. Keep names, numbers and UK phone numbers as they are.`,
    },
    { role: 'user' as const, content: text },
  ];
}

/** The English of `text`; `text` itself when it is English already. Fails as the model does (the caller keeps the original). */
export async function translateToEnglish(llm: ReplyStreamer, text: string, language: LanguageCode, signal?: AbortSignal): Promise<string> {
  if (language === 'en' || !text.trim()) return text;
  let out = '';
  for await (const piece of llm.stream(translationMessages(text, language), { signal })) out += piece;
  const english = out.replace(/\s+/g, ' ').trim().replace(/^"(.*)"$/, '$1');
  if (!english) throw new Error(`the model gave no English for a ${ENGLISH_NAMES[language]} question`);
  return english;
}
