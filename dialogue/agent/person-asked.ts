import { namesCallersUse, normalise, roleForms } from './ask-for-person.js';
import type { BookablePerson } from './booking-desk.js';

// "Book me in with Tom" (issue 58): the person a caller named, by any of their names, as whole
// words in any case ("tom", "Samantha"); a first name alone names "Tom Baker". Pure. Nobody
// named, two people named, or "anyone" leaves the choice to the desk (the soonest across them).
// "With a stylist": a role word of the team, and who of those doing the service has it.

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

/** A role word the caller named, and who doing the service has it: none of them is `people: []`. */
export interface RoleAsked {
  /** As the team writes it ("stylist"). */
  roleWord: string;
  people: BookablePerson[];
}

/**
 * The one role word of the team (`teamRoles`, and those of `people`) the caller's words name,
 * singular or plural, whole words, any case ("a stylist", "one of your engineers"). A longer
 * role holding a shorter one ("office manager", "manager") is the one named; two different
 * roles named are no choice (undefined), as two names are.
 */
export function roleAskedFor(text: string, people: readonly BookablePerson[], teamRoles: readonly string[]): RoleAsked | undefined {
  const said = ` ${normalise(text)} `;
  const roles = new Map<string, string>();
  for (const word of [...people.map((p) => p.roleWord ?? ''), ...teamRoles]) {
    const key = normalise(word);
    if (key && !roles.has(key)) roles.set(key, word.trim());
  }
  const found = [...roles.keys()].filter((key) => new RegExp(` ${roleForms(key)} `).test(said));
  const named = found.filter((key) => !found.some((other) => other !== key && ` ${other} `.includes(` ${key} `)));
  if (named.length !== 1) return undefined;
  const key = named[0]!;
  return { roleWord: roles.get(key)!, people: people.filter((p) => normalise(p.roleWord ?? '') === key) };
}
