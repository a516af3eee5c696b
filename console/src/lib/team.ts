// The Team page's display rules (issue 58): a routing rule in words, editing the rule list,
// the person a call or booking is for, and the staff sign-in's banner. Pure, tested beside.
import { ROUTING_WHENS } from '../../../contract/enums';
import { TEAM_LIMITS } from '../../../contract/rules';
import { type RoutingRule, type RoutingTarget, type RoutingWhen } from '../../../contract/team';

/** The fixed parts a rule's "When the caller …" is built from, as the Team page shows them. */
const WHEN_LABELS: Record<RoutingWhen, string> = {
  emergency: 'says it is an emergency',
  'new-enquiry': 'is a new enquiry',
  'existing-caller': 'has called before',
  booking: 'wants to book',
  closed: 'calls when closed',
};
export const WHEN_OPTIONS = ROUTING_WHENS.map((value) => ({ value, label: WHEN_LABELS[value] }));

export const RING_FIRST_LABELS = { off: 'Off: answer at once', all: 'Everyone working at once', 'in-order': 'One after another' } as const;

interface Named {
  id: number;
  name: string;
}

/** "an engineer", "a stylist". */
const withArticle = (word: string) => `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;

export function targetWords(then: RoutingTarget, members: readonly Named[]): string {
  if (then.kind === 'on-call') return "today's on-call";
  if (then.kind === 'role') return `anyone who is ${withArticle(then.roleWord)}`;
  return members.find((m) => m.id === then.staffId)?.name ?? 'someone no longer on your team';
}

/** "When the caller says it is an emergency → ring today's on-call". */
export const ruleSentence = (rule: RoutingRule, members: readonly Named[]) => `When the caller ${WHEN_LABELS[rule.when]} → ring ${targetWords(rule.then, members)}`;

export const canAddRule = (rules: readonly RoutingRule[]) => rules.length < TEAM_LIMITS.rules;

/** The list with rule `index` moved one place up (-1) or down (+1); unchanged at either end. */
export function moveRule<T>(rules: readonly T[], index: number, by: -1 | 1): T[] {
  const to = index + by;
  if (index < 0 || index >= rules.length || to < 0 || to >= rules.length) return [...rules];
  const out = [...rules];
  [out[index], out[to]] = [out[to]!, out[index]!];
  return out;
}

/** The role words the team uses, once each, in order: a rule's "anyone who is a …" offers these. */
export function roleWords(members: readonly { roleWord: string | null }[]): string[] {
  const seen = new Map<string, string>();
  for (const m of members) {
    const word = m.roleWord?.trim();
    if (word && !seen.has(word.toLowerCase())) seen.set(word.toLowerCase(), word);
  }
  return [...seen.values()];
}

/** "Sam, Samantha" → ["Sam", "Samantha"]: commas part the names callers use, blanks dropped. */
export const parseOtherNames = (text: string) =>
  text
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);

/** Ring-first seconds as typed, kept within 10–60 (an empty or odd entry is the lower bound). */
export function clampRingSeconds(value: number): number {
  if (!Number.isFinite(value)) return TEAM_LIMITS.ringSecondsMin;
  return Math.min(TEAM_LIMITS.ringSecondsMax, Math.max(TEAM_LIMITS.ringSecondsMin, Math.round(value)));
}

/** A duration field: empty is the service's own length (null), else whole minutes. */
export function ownLength(text: string): number | null {
  const n = Number(text.trim());
  return text.trim() === '' || !Number.isInteger(n) || n <= 0 ? null : n;
}

/** The staff sign-in's banner: "Signed in as Sarah at Smith Plumbing". */
export const staffBanner = (name: string, business: string | null) => (business ? `Signed in as ${name} at ${business}` : `Signed in as ${name}`);

/** The person filter's value in the address (?staffId=): a positive id, else everyone (null). */
export function staffIdParam(value: string | null): number | null {
  const n = Number(value);
  return value && Number.isInteger(n) && n > 0 ? n : null;
}

/**
 * Items by person for the wide day view: a column per current member in the team's order, then
 * one per person no longer on the team (by the name the item carries), then "No one".
 */
export function columnsByPerson<T extends object>(items: readonly T[], members: readonly Named[]): { key: string; name: string; items: T[] }[] {
  const of = (i: T) => i as T & Attributed;
  const columns = members.map((m) => ({ key: `m${m.id}`, name: m.name, items: items.filter((i) => of(i).staffId === m.id) }));
  for (const it of items) {
    const item = of(it);
    if (members.some((m) => m.id === item.staffId)) continue;
    const key = item.staffId ? `m${item.staffId}` : 'none';
    const column = columns.find((c) => c.key === key);
    if (column) column.items.push(it);
    else columns.push({ key, name: item.staffId ? (item.staffName ?? 'Former member') : 'No one', items: [it] });
  }
  return columns;
}

/** What calls and bookings carry about their person (issue 58); read optionally until every server sends it. */
export interface Attributed {
  staffId?: number | null;
  staffName?: string | null;
  routingNote?: string | null;
}

/** The people named by a list of calls or bookings, once each, in the order they first appear: the person filter's choices. */
export function peopleOf(items: readonly object[]): { id: number; name: string }[] {
  const people = new Map<number, string>();
  for (const i of items as readonly Attributed[]) if (i.staffId && !people.has(i.staffId)) people.set(i.staffId, i.staffName ?? 'Former member');
  return [...people].map(([id, name]) => ({ id, name }));
}
