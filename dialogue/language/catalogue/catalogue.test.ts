import { describe, expect, it } from 'vitest';
import { LANGUAGE_VOICES } from '../../../models/tts/index.js';
import { CATALOGUES } from '../catalogues.js';
import { LANGUAGE_WRITING, LANGUAGES, type LanguageCode } from '../languages.js';
import type { Catalogue } from './catalogue.js';
import { en } from './en.js';

// Every language's catalogue against English's: each line there, with English's placeholders,
// and written in the language's own script (languages.ts), so a voice never gets a line it
// cannot read (an Urdu line in Latin letters, a Polish one in Cyrillic).

const SECTIONS = ['agent', 'call', 'person', 'booking', 'bookingSaid', 'deposit'] as const;
const SCRIPT_LETTERS = { Latin: /\p{Script=Latin}/u, Arabic: /\p{Script=Arabic}/u, Gurmukhi: /\p{Script=Gurmukhi}/u };
const PLACEHOLDER = /\{(\w+)\}/g;

const placeholdersOf = (line: string) => [...line.matchAll(PLACEHOLDER)].map((m) => m[1]).sort();
/** The letters a caller hears from the line itself: names and times come in through placeholders. */
const lettersOf = (line: string) => [...line.replace(PLACEHOLDER, '')].filter((c) => /\p{L}/u.test(c));

/** What is wrong with one language's catalogue, a line per problem ("pl call.switched: ..."). */
function problems(code: LanguageCode, c: Catalogue): string[] {
  const out: string[] = [];
  const script = LANGUAGE_WRITING[code].script;
  for (const section of SECTIONS) {
    for (const [key, english] of Object.entries(en[section])) {
      const at = `${code} ${section}.${key}`;
      const line = (c[section] as Readonly<Record<string, string | undefined>>)[key];
      if (!line?.trim()) {
        out.push(`${at}: missing`);
        continue;
      }
      if (placeholdersOf(line).join() !== placeholdersOf(english).join()) out.push(`${at}: placeholders ${placeholdersOf(line).join()} where English has ${placeholdersOf(english).join()}`);
      const letters = lettersOf(line);
      const foreign = letters.filter((l) => !SCRIPT_LETTERS[script].test(l));
      if (foreign.length) out.push(`${at}: ${foreign.join('')} not in ${script} script`);
      if (code !== 'en' && letters.length && line === english) out.push(`${at}: left in English`);
    }
  }
  return out;
}

describe('one catalogue per language', () => {
  it.each(LANGUAGES)('%s has every line English has, with its placeholders, in its own script', (code) => {
    expect(problems(code, CATALOGUES[code])).toEqual([]);
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))("%s's script is the one its voices read", (code) => {
    expect(LANGUAGE_VOICES[code]?.script).toBe(LANGUAGE_WRITING[code].script);
  });

  it('finds a missing line, a wrong placeholder, a line in another script and one left in English', () => {
    const { holding: _dropped, ...agent } = CATALOGUES.pl.agent;
    const brokenPolish = {
      ...CATALOGUES.pl,
      agent,
      call: { ...CATALOGUES.pl.call, goodbyeNamed: 'Dziękujemy za telefon do {busines}. Do widzenia.', switched: 'Конечно, я говорю по-польски.' },
      booking: { ...CATALOGUES.pl.booking, askName: en.booking.askName },
    } as unknown as Catalogue;
    expect(problems('pl', brokenPolish)).toEqual([
      'pl agent.holding: missing',
      'pl call.goodbyeNamed: placeholders busines where English has business',
      'pl call.switched: Конечнояговорюпопольски not in Latin script',
      'pl booking.askName: left in English',
    ]);
    const latinUrdu = { ...CATALOGUES.ur, booking: { ...CATALOGUES.ur.booking, askName: 'Aap ka naam?' } };
    expect(problems('ur', latinUrdu)).toEqual(['ur booking.askName: Aapkanaam not in Arabic script']);
  });
});
