import { LanguageModelError, type LanguageModel, type ReplyStreamer } from '../../models/llm/language-model.js';
import { ENGLISH_NAMES, type LanguageCode } from './languages.js';

// The owner reads English: a caller's words in another language are translated by the same
// local model that answers them, for the questions log and the transcript.

/** What a translation must leave alone: the owner rings the caller back from these. */
const KEEP_AS_WRITTEN = 'Keep names, numbers and UK phone numbers as they are.';

function translationMessages(text: string, language: LanguageCode) {
  return [
    {
      role: 'system' as const,
      content: `Translate what a caller said on the phone from ${ENGLISH_NAMES[language]} into plain UK English. Reply with the English translation only: no notes, no quotation marks. ${KEEP_AS_WRITTEN}`,
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

/**
 * The English of a whole call (an agent dialogue with its "Caller:"/"Agent:" lines, or a
 * voicemail message), for Call Details beside the original. Once, after the call: temperature
 * low. An empty reply is not retried (the same transcript tends to get the same answer).
 */
export async function translateTranscript(llm: LanguageModel, transcript: string, language: LanguageCode, signal?: AbortSignal): Promise<string> {
  const system = `Translate this phone call from ${ENGLISH_NAMES[language]} into plain UK English, line by line. Keep the "Caller:" or "Agent:" at the start of a line, and lines already in English, as they are. Reply with the translation only: no notes. ${KEEP_AS_WRITTEN}`;
  const english = (await llm.chat([{ role: 'system', content: system }, { role: 'user', content: transcript }], { signal, temperature: 0.2 })).trim();
  if (!english) throw new LanguageModelError(`the model gave no English for a ${ENGLISH_NAMES[language]} transcript`, false);
  return english;
}
