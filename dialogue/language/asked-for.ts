import type { LanguageCode } from './languages.js';

// A caller asking for a language by name ("Do you speak Polish?", "Cymraeg?", "English
// please"): pure, so each phrase is unit-tested. Names are matched in English, in the
// language itself, and (for English) as each of the other languages says it, since a
// caller switching back usually asks in the language they were being answered in.

/** Whole words in any script: JavaScript's \b knows only ASCII letters, so "română" would not end at one. */
function words(...alternatives: string[]): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{M}])(${alternatives.join('|')})(?![\\p{L}\\p{M}])`, 'iu');
}

const NAMES: ReadonlyArray<readonly [LanguageCode, RegExp]> = [
  ['en', words('english', 'angielsk\\p{L}*', 'engleză', 'engleza', 'englezește', 'englezeste', 'inglês', 'ingles', 'inglés', 'saesneg', 'انگریزی', 'ਅੰਗਰੇਜ਼ੀ')],
  ['pl', words('polish', 'polsk\\p{L}*')],
  ['ro', words('romanian', 'română', 'romana', 'românește', 'romaneste', 'româna')],
  ['pa', words('panjabi', 'punjabi', 'ਪੰਜਾਬੀ', 'پنجابی')],
  ['ur', words('urdu', 'اردو')],
  ['pt', words('portuguese', 'português', 'portugues')],
  ['es', words('spanish', 'español', 'espanol', 'castellano')],
  ['cy', words('welsh', 'cymraeg', 'gymraeg')],
];

/**
 * A request, not a mention: a verb of speaking anywhere ("Do you speak Polish?", "Mówisz po
 * polsku?"), a preposition just before the name ("in English", "yn Gymraeg", "en español"),
 * or a short turn that is mostly the name ("Cymraeg?"). "Can you polish the floor?" and "my
 * Polish car's in the garage" are none of these.
 */
const SPEAKING = words('speak', 'speaks', 'talk', 'hablas?', 'habla', 'falas?', 'fala', 'vorbiți', 'vorbesti', 'vorbești', 'vorbiti', 'mówi\\p{L}*', 'siarad', 'bolte', 'bolde', 'boldi');
const PREPOSITION_BEFORE_NAME = /(?<![\p{L}\p{M}])(in|po|yn|en|em|în)\s+$/iu;
const SHORT_TURN_WORDS = 3;

export function languageAskedFor(text: string): LanguageCode | undefined {
  const turnWords = text.trim().split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
  if (turnWords.length === 0) return undefined;
  const named = NAMES.map(([code, re]) => [code, re.exec(text)] as const).filter(([, m]) => m !== null);
  // "Do you speak English or Polish?" names two: no clear request.
  if (named.length !== 1) return undefined;
  const [code, match] = named[0]!;
  if (turnWords.length <= SHORT_TURN_WORDS || SPEAKING.test(text)) return code;
  if (PREPOSITION_BEFORE_NAME.test(text.slice(0, match!.index))) return code;
  return undefined;
}
