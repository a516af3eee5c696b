import { WEEKDAY_NAMES, WEEKDAYS } from '../../contract/call-handling.js';
import { TEAM_LIMITS } from '../../contract/rules.js';
import { TEAM_MESSAGES } from '../../contract/schemas/team.js';
import type { RoutingRule } from '../../contract/team.js';
import type { Invalid } from '../call-handling/validate.js';
import type { TeamSettings } from './store.js';

// The team settings' rules (issue 58 items 3 and 4), pure: a rule or a rota day may name only a
// current member, so a call is never routed to someone who has left.

/** The current members as the rules are checked against them. */
export interface RuleMember {
  id: number;
  name: string;
  roleWord: string | null;
}

const L = TEAM_LIMITS;
const sameWord = (a: string, b: string) => a.trim().toLocaleLowerCase('en-GB') === b.trim().toLocaleLowerCase('en-GB');

function checkRules(rules: readonly RoutingRule[], members: readonly RuleMember[]): RoutingRule[] | Invalid {
  if (rules.length > L.rules) return { field: 'rules', message: TEAM_MESSAGES.rules };
  const out: RoutingRule[] = [];
  for (const [i, rule] of rules.entries()) {
    const field = `rules.${i}`;
    const then = rule.then;
    if (then.kind === 'person' && !members.some((m) => m.id === then.staffId)) {
      return { field, message: `Rule ${i + 1} names someone who is no longer on your team.` };
    }
    if (then.kind === 'role') {
      const word = then.roleWord.trim().replace(/\s+/g, ' ');
      if (!members.some((m) => m.roleWord !== null && sameWord(m.roleWord, word))) {
        return { field, message: `Rule ${i + 1} rings "${word}", which is nobody's role word on your team: give someone that role word first.` };
      }
      out.push({ when: rule.when, then: { kind: 'role', roleWord: word } });
      continue;
    }
    out.push(rule);
  }
  return out;
}

function checkRota(rota: TeamSettings['rota'], members: readonly RuleMember[]): TeamSettings['rota'] | Invalid {
  const out: TeamSettings['rota'] = {};
  for (const day of WEEKDAYS) {
    const id = rota[day];
    if (id === undefined) continue;
    if (!members.some((m) => m.id === id)) return { field: `rota.${day}`, message: `The on-call rota for ${WEEKDAY_NAMES[day]} names someone who is no longer on your team.` };
    out[day] = id;
  }
  return out;
}

/** `input` over `current`: ring time 10–60 s, at most 10 rules and a rota naming only current members (and role words someone has). */
export function validateTeamSettings(input: Partial<TeamSettings>, current: TeamSettings, members: readonly RuleMember[]): TeamSettings | Invalid {
  const next: TeamSettings = { ...current };
  if (input.ringFirst !== undefined) next.ringFirst = input.ringFirst;
  if (input.copyOwner !== undefined) next.copyOwner = input.copyOwner;
  if (input.ringSeconds !== undefined) {
    const s = input.ringSeconds;
    if (!Number.isInteger(s) || s < L.ringSecondsMin || s > L.ringSecondsMax) {
      return { field: 'ringSeconds', message: TEAM_MESSAGES.ringSeconds };
    }
    next.ringSeconds = s;
  }
  if (input.rules !== undefined) {
    const rules = checkRules(input.rules, members);
    if ('message' in rules) return rules;
    next.rules = rules;
  }
  if (input.rota !== undefined) {
    const rota = checkRota(input.rota, members);
    if ('message' in rota) return rota;
    next.rota = rota;
  }
  return next;
}

/**
 * Why `member` cannot be removed yet: they are the owner, or a rule or the rota still names
 * them (changed first, so no call is routed to nobody). Null when they can go.
 */
export function removalRefusal(member: { id: number; name: string; isOwner: boolean }, settings: TeamSettings): Invalid | null {
  if (member.isOwner) return { field: 'id', message: 'You are the owner: you stay on your team. Remove other people only.' };
  const rule = settings.rules.findIndex((r) => r.then.kind === 'person' && r.then.staffId === member.id);
  if (rule >= 0) return { field: `rules.${rule}`, message: `Rule ${rule + 1} puts calls through to ${member.name}: change that rule before removing ${member.name}.` };
  const day = WEEKDAYS.find((d) => settings.rota[d] === member.id);
  if (day) return { field: `rota.${day}`, message: `${member.name} is on call on ${WEEKDAY_NAMES[day]}: change the on-call rota before removing ${member.name}.` };
  return null;
}
