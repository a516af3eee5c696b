import { describe, expect, it } from 'vitest';
import { teamMember } from '../../test/helpers/team-members.js';
import type { RoutingRule } from '../../contract/team.js';
import { matchRoutingRule, memberOfRole, targetOf, type RoutingFacts } from './routing-rule-match.js';
import type { TeamView } from './team-view.js';

const member = teamMember;
const office = member(1, 'Office');
const tom = member(2, 'Tom', { roleWord: 'engineer', working: false });
const ann = member(3, 'Ann', { roleWord: 'Engineer' });
const bea = member(4, 'Bea', { roleWord: 'engineer', phone: null });
const team = (rules: RoutingRule[], onCallId: number | null = null): TeamView => ({ members: [office, tom, ann, bea], rules, onCallId });
const facts = (over: Partial<RoutingFacts> = {}): RoutingFacts => ({ urgent: false, booking: false, knownCaller: null, closed: false, ...over });

describe('matchRoutingRule: the first rule that fits, in order', () => {
  const rules: RoutingRule[] = [
    { when: 'emergency', then: { kind: 'on-call' } },
    { when: 'closed', then: { kind: 'person', staffId: 1 } },
    { when: 'new-enquiry', then: { kind: 'person', staffId: 1 } },
    { when: 'existing-caller', then: { kind: 'role', roleWord: 'engineer' } },
    { when: 'booking', then: { kind: 'person', staffId: 2 } },
  ];

  it('an emergency rings today’s on-call member', () => {
    expect(matchRoutingRule(team(rules, 3), facts({ urgent: true, closed: true }))).toEqual({ rule: rules[0], target: { member: ann, reachable: true } });
  });

  it('passes over a rule that names nobody today (no one on call) for the next that fits', () => {
    expect(matchRoutingRule(team(rules, null), facts({ urgent: true, closed: true }))?.rule).toBe(rules[1]);
    expect(matchRoutingRule(team(rules, null), facts({ urgent: true }))).toBeNull();
  });

  it('new and existing callers by whether the number was in touch; unknown fits neither', () => {
    expect(matchRoutingRule(team(rules), facts({ knownCaller: false }))?.rule).toBe(rules[2]);
    expect(matchRoutingRule(team(rules), facts({ knownCaller: true }))?.rule).toBe(rules[3]);
    expect(matchRoutingRule(team(rules), facts({ knownCaller: null }))).toBeNull();
  });

  it('a booking reaches its person, even one not working (the caller is told so)', () => {
    expect(matchRoutingRule(team(rules), facts({ booking: true }))).toEqual({ rule: rules[4], target: { member: tom, reachable: false, why: 'not-working' } });
  });

  it('order decides: the same call under rules in the other order', () => {
    const reversed = [...rules].reverse();
    expect(matchRoutingRule(team(reversed, 3), facts({ urgent: true, booking: true }))?.rule).toBe(rules[4]);
  });

  it('no rules: nothing matches', () => {
    expect(matchRoutingRule(team([]), facts({ urgent: true, booking: true, closed: true, knownCaller: true }))).toBeNull();
  });
});

describe('targets', () => {
  it('a role: the first of it working now with a phone, whatever the role word’s case', () => {
    expect(memberOfRole(team([]), 'ENGINEER')).toEqual({ member: ann, reachable: true });
  });

  it('a role nobody of which can be rung: the first of it, with why', () => {
    const t = { ...team([]), members: [office, tom, bea] };
    expect(memberOfRole(t, 'engineer')).toEqual({ member: tom, reachable: false, why: 'not-working' });
    expect(memberOfRole({ ...t, members: [bea] }, 'engineer')).toEqual({ member: bea, reachable: false, why: 'no-phone' });
    expect(memberOfRole(t, 'plumber')).toBeNull();
  });

  it('a person no longer on the team is nobody', () => {
    expect(targetOf({ kind: 'person', staffId: 99 }, team([]))).toBeNull();
    expect(targetOf({ kind: 'on-call' }, team([], 99))).toBeNull();
  });
});
