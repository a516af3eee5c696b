import { WEEKDAYS, type CallHandlingSettings, type OpeningSpan, type Weekday } from '../../contract/call-handling.js';
import { type STAFF_VIEWS } from '../../contract/enums.js';
import { TEAM_LIMITS } from '../../contract/rules.js';
import { TEAM_MESSAGES } from '../../contract/schemas/team.js';
import { validateDay, type Invalid } from '../call-handling/validate.js';

// The rules of one team member's own fields (issue 58 item 1), pure: the routes read the current
// team and apply these inside one transaction, so two saves cannot both take the same name.

type Week = CallHandlingSettings['hours'];
type View = (typeof STAFF_VIEWS)[number];

/** What the owner sends for a member: any field left out keeps its stored value. */
export interface MemberInput {
  name?: string;
  otherNames?: string[];
  roleWord?: string | null;
  hours?: Partial<Record<Weekday, OpeningSpan[]>> | null;
  view?: View;
}

/** A member's fields as stored. */
export interface MemberFields {
  name: string;
  otherNames: string[];
  roleWord: string | null;
  hours: Week | null;
  view: View;
}

/** Another current member, whose names this one must not share. */
export interface OtherMember {
  name: string;
  otherNames: string[];
}

const L = TEAM_LIMITS;
export const NEW_MEMBER: MemberFields = { name: '', otherNames: [], roleWord: null, hours: null, view: 'own' };

export const isInvalid = (v: unknown): v is Invalid => typeof v === 'object' && v !== null && 'message' in v && 'field' in v;

/** The refusal of one more member past TEAM_MAX_STAFF (the owner not counted); null when there is room. */
export function staffLimitRefusal(staffBesidesOwner: number, maxStaff: number): Invalid | null {
  return staffBesidesOwner >= maxStaff ? { field: 'name', message: `Your team can have at most ${maxStaff} people besides you.` } : null;
}

/** Callers say a name in any case and spacing: "sam", "Sam " and "SAM" are one name. */
const key = (name: string) => name.trim().replace(/\s+/g, ' ').toLocaleLowerCase('en-GB');

function checkNames(name: string, otherNames: readonly string[], others: readonly OtherMember[]): { name: string; otherNames: string[] } | Invalid {
  const main = name.trim().replace(/\s+/g, ' ');
  if (!main || main.length > L.nameLength) return { field: 'name', message: TEAM_MESSAGES.name };
  const kept: string[] = [];
  const seen = new Set([key(main)]);
  for (const raw of otherNames) {
    const n = raw.trim().replace(/\s+/g, ' ');
    if (!n || seen.has(key(n))) continue; // blank or said twice: nothing to keep
    if (n.length > L.nameLength) return { field: 'otherNames', message: `Each other name is at most ${L.nameLength} characters.` };
    seen.add(key(n));
    kept.push(n);
  }
  if (kept.length > L.otherNames) return { field: 'otherNames', message: `Give at most ${L.otherNames} other names.` };
  for (const other of others) {
    const clash = [other.name, ...other.otherNames].find((n) => seen.has(key(n)));
    if (clash) {
      return {
        field: clash && key(clash) === key(main) ? 'name' : 'otherNames',
        message: `"${clash}" is already a name of ${other.name} on your team: give each person names nobody else on the team uses, so a caller asking for them reaches the right one.`,
      };
    }
  }
  return { name: main, otherNames: kept };
}

function checkRoleWord(raw: string | null): string | null | Invalid {
  const word = raw?.trim().replace(/\s+/g, ' ') ?? '';
  if (word.length > L.roleWordLength) return { field: 'roleWord', message: `A role word is at most ${L.roleWordLength} characters, e.g. engineer.` };
  return word || null;
}

/** Working hours: null = the business's opening hours; a day left out is a day off; each day under call handling's rules. */
export function checkHours(hours: MemberInput['hours']): Week | null | Invalid {
  if (hours === null || hours === undefined) return null;
  const week = {} as Week;
  for (const day of WEEKDAYS) {
    const checked = validateDay(day, hours[day] ?? []);
    if (isInvalid(checked)) return checked;
    week[day] = checked;
  }
  return week;
}

/**
 * `input` applied over `current` (NEW_MEMBER for an addition): names 1–60 characters, at most 5
 * other names, none shared with another current member (any case); a role word of at most 40;
 * hours as call handling's. Says what is wrong in words the Team page shows.
 */
export function validateMember(input: MemberInput, current: MemberFields, others: readonly OtherMember[]): MemberFields | Invalid {
  const names = checkNames(input.name ?? current.name, input.otherNames ?? current.otherNames, others);
  if (isInvalid(names)) return names;
  const roleWord = input.roleWord === undefined ? current.roleWord : checkRoleWord(input.roleWord);
  if (isInvalid(roleWord)) return roleWord;
  const hours = input.hours === undefined ? current.hours : checkHours(input.hours);
  if (isInvalid(hours)) return hours;
  return { ...names, roleWord, hours, view: input.view ?? current.view };
}
