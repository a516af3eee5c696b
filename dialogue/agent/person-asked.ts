import { namesCallersUse } from './ask-for-person.js';
import type { BookablePerson } from './booking-desk.js';

// "Book me in with Tom" (issue 58): the person a caller named, by any of their names, as whole
// words in any case ("tom", "Samantha"); a first name alone names "Tom Baker". Pure. Nobody
// named, two people named, or "anyone" leaves the choice to the desk (the soonest across them).

const wordsOf = (text: string) => text.toLocaleLowerCase().split(/[^\p{L}\p{N}'’-]+/u).filter(Boolean);

/** Whether the words hold `name` as a run of whole words. */
function names(words: readonly string[], name: string): boolean {
  const want = wordsOf(name);
  if (!want.length) return false;
  return words.some((_, i) => want.every((w, k) => words[i + k] === w));
}

export function personAskedFor(text: string, people: readonly BookablePerson[]): BookablePerson | undefined {
  const words = wordsOf(text);
  const named = people.filter((p) => namesCallersUse(p).some((n) => names(words, n)));
  return named.length === 1 ? named[0] : undefined;
}
