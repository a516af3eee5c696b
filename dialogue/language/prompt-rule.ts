import { ENGLISH_NAMES, type LanguageCode } from './languages.js';

// The one rule of the agent's prompt that depends on the caller's language. The knowledge
// base and the never-invent rules stay as they are, in English: the model answers from the
// same facts whatever language it answers in.

export function languageRule(language: LanguageCode): string {
  if (language === 'en') return '- Use UK English (colour, organise, £, "8am to 6pm").';
  const name = ENGLISH_NAMES[language];
  return [
    `- The caller speaks ${name}: write "answer" in ${name} only, translating the facts of the knowledge base faithfully (add nothing, leave nothing out).`,
    `- Say numbers, prices, dates and times the way ${name} speakers say them, in words a voice can read aloud (pounds sterling, the 24-hour clock where ${name} uses it).`,
    '- Keep names of people, businesses, streets and places, email addresses and UK phone numbers exactly as written.',
  ].join('\n');
}
