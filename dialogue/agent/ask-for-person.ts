import type { TeamMemberView } from './team-view.js';

// "Can I speak to Sarah?": whether the caller's words ask for one team member, by any of
// their names, or for someone of a role ("an engineer"). Pure. A name or role word counts
// only inside a request ("speak to", "put me through to", "is … there", "… please"), so a
// caller mentioning Sarah ("Sarah's booking", "Sarah fitted my boiler") is not put through
// to her; an unclear request (two people named, two of them called Sam) is no request.

export type PersonRequest =
  | { kind: 'person'; member: TeamMemberView }
  /** The role word as the team writes it; the routing rule picks who (routing-rule-match.ts). */
  | { kind: 'role'; roleWord: string };

/** Lower case, letters, digits and apostrophes, single spaces: what the patterns read. */
export function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .replace(/[^\p{L}\p{N}' ]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A name or role as a pattern: its words in order, never followed by a possessive. */
const phrase = (words: string) => `${normalise(words).split(' ').map(escape).join(' ')}(?!'s)`;

/** Before a role word: "an engineer", "one of your stylists", "someone from the office"… or nothing. */
const ARTICLE = "(?:(?:an?|the|your|any|one of (?:your|the)|someone|somebody|anyone|one)(?: (?:of|from))?(?: (?:your|the))? )?";

/** Requests for `target` (a pattern); `names` adds the forms that only a name takes. */
function requestPatterns(target: string, names: boolean): RegExp[] {
  const t = `(?:${target})`;
  const end = "(?= |$)";
  return [
    new RegExp(`(?:^| )(?:speak|talk|chat) (?:to|with) ${t}${end}`),
    new RegExp(`(?:^| )(?:put|transfer|connect|pass|send) me (?:through |over )?(?:to|with) ${t}${end}`),
    new RegExp(`(?:^| )(?:through to|get hold of|ask(?:ing)? for|looking for|i'm after|after) ${t}${end}`),
    new RegExp(`(?:^| )(?:is|are) ${t} (?:there|in|around|about${names ? '|available|free|working' : ''})${end}`),
    new RegExp(`(?:^| )(?:can|could|may) i (?:have|get) ${t}${end}`),
    new RegExp(`(?:^| )${t} please${end}`),
    // The caller says only the name: "Sarah?", "Sam, please".
    ...(names ? [new RegExp(`^(?:hi |hello )?${t}$`)] : []),
  ];
}

/** The names callers use for a person: every name the owner gave, and a full name's first word (lower case). */
export function namesCallersUse(m: Pick<TeamMemberView, 'name' | 'otherNames'>): string[] {
  const all = [m.name, ...m.otherNames].map(normalise).filter(Boolean);
  const first = normalise(m.name).split(' ')[0];
  if (first && first !== normalise(m.name)) all.push(first);
  return [...new Set(all)];
}

/** A role word, singular or plural ("engineer", "engineers"; "secretary", "secretaries"), as a pattern on normalised words. */
export function roleForms(word: string): string {
  const w = normalise(word);
  const stem = escape(w);
  return w.endsWith('y') ? `(?:${stem}|${escape(w.slice(0, -1))}ies)` : `${stem}(?:s|es)?`;
}

const asks = (text: string, target: string, names: boolean) => requestPatterns(target, names).some((p) => p.test(text));

/** "Sarah or Tom", "an engineer and a stylist": two asked for in one breath. */
const joined = (text: string, a: string, b: string) => new RegExp(`(?:^| )(?:(?:${a}) (?:or|and) (?:${b})|(?:${b}) (?:or|and) (?:${a}))(?= |$)`).test(text);

/** The one target the caller asks for, of `targets` (each with its pattern); null when none, or two. */
function theOne<T>(text: string, targets: readonly (readonly [T, string])[], names: boolean): T | 'none' | 'unclear' {
  const asked = targets.filter(([, p]) => asks(text, p, names));
  if (asked.length > 1) return 'unclear';
  const [one] = asked;
  if (!one) return 'none';
  return targets.some(([t, p]) => t !== one[0] && joined(text, one[1], p)) ? 'unclear' : one[0];
}

/** The person or role the caller asks for, or null when they ask for none, or it is not clear whom. */
export function askForPerson(words: string, members: readonly TeamMemberView[]): PersonRequest | null {
  const text = normalise(words);
  if (!text) return null;
  const person = theOne(text, members.map((m) => [m, namesCallersUse(m).map(phrase).join('|')] as const), true);
  // Two people asked for, or one name two people share: the agent cannot choose for the caller.
  if (person === 'unclear') return null;
  if (person !== 'none') return { kind: 'person', member: person };
  const roles = new Map<string, string>();
  for (const m of members) {
    const word = m.roleWord?.trim();
    if (word && !roles.has(normalise(word))) roles.set(normalise(word), word);
  }
  const role = theOne(text, [...roles].map(([w, word]) => [word, `${ARTICLE}${roleForms(w)}(?!'s)`] as const), false);
  return role === 'none' || role === 'unclear' ? null : { kind: 'role', roleWord: role };
}
