import { describe, expect, it } from 'vitest';
import { teamMember } from '../../test/helpers/team-members.js';
import type { RoutingRule } from '../../contract/team.js';
import { fixedLines } from '../language/fixed-lines.js';
import { offerTimes, readBack } from '../language/booking-lines.js';
import { messageForLine, teamMenuLine } from '../spoken/team-menu.js';
import { decideRoute, routeRequest, ruleFor, type CallRouting } from './person-routing.js';
import { reachOf } from './routing-rule-match.js';
import type { TeamView } from './team-view.js';

// Issue 58: the owner's own member is made with the name "Owner" (accounts hold no personal
// name). Nobody may hear or read it as a name: routing, its notes and the lines say "the owner"
// until the owner renames the member, then that name.

const unnamedOwner = teamMember(1, 'Owner', { isOwner: true, working: false });
const namedOwner = teamMember(1, 'Priya', { isOwner: true, working: false });
const tom = teamMember(2, 'Tom', { roleWord: 'engineer' });
const routing = (owner: typeof unnamedOwner, rules: RoutingRule[] = []): CallRouting => ({
  team: { members: [owner, tom], rules, onCallId: null } satisfies TeamView, knownCaller: false, closed: false, canRing: true,
});
/** "Owner" as a name: capital O, a word of its own ("the owner" is how it should read). */
const OWNER_AS_NAME = /\bOwner\b/;

describe('asking for the owner by the made-up name', () => {
  it('the message is for "the owner", and the line and the note say so', () => {
    const d = routeRequest({ kind: 'person', member: unnamedOwner }, routing(unnamedOwner));
    if (!d || !('message' in d)) throw new Error('expected a message');
    expect(d.message.name).toBe('the owner');
    expect(d.message.note).toBe('Asked for the owner: not working now, message taken for the owner');
    expect(fixedLines('en').personNotAvailable(d.message.name)).toBe("I'm afraid the owner isn't available right now. I can take a message for them: please tell me your name and what it's about.");
  });

  it('once renamed, their name', () => {
    const d = routeRequest({ kind: 'person', member: namedOwner }, routing(namedOwner));
    expect(d && 'message' in d && d.message.note).toBe('Asked for Priya: not working now, message taken for Priya');
  });

  it('ringing the owner names them as "the owner" to the notes written after', () => {
    const d = decideRoute({ kind: 'rule', when: 'new-enquiry' }, reachOf({ ...unnamedOwner, working: true }), true);
    if (!('ring' in d)) throw new Error('expected a ring');
    expect(d.ring.name).toBe('the owner');
    expect(d.note).toBe("New enquiry: the caller hung up while the owner's phone rang");
  });

  it("a rule naming the owner: the target is named as spoken (turn-policy.ts writes a rule's notes from it)", () => {
    const rule = ruleFor(routing(unnamedOwner, [{ when: 'new-enquiry', then: { kind: 'person', staffId: 1 } }]), { urgent: false, booking: false });
    expect(rule?.target.member).toMatchObject({ id: 1, name: 'the owner', isOwner: true });
  });
});

describe('the lines that name a person', () => {
  it('the voicemail menu and its message line', () => {
    expect(messageForLine('the owner', false)).toBe("The owner isn't working right now. Please leave a message for the owner after the tone.");
    expect(teamMenuLine([{ digit: '1', name: 'the owner' }, { digit: '2', name: 'Tom' }])).toBe('To speak to someone, press 1 for the owner, 2 for Tom.');
  });

  it('offered times and the read-back with the owner begin their sentences with a capital, and never say "Owner"', () => {
    const start = new Date('2026-12-01T09:00:00Z');
    const slot = (staffName: string) => ({ id: 's', serviceId: 1, serviceName: 'Cut', start, end: start, spoken: "Tuesday the 1st of December at nine o'clock", staffName });
    const offer = offerTimes([slot('the owner'), slot('Tom')]);
    expect(offer).toBe("The owner can do Tuesday the 1st of December at nine o'clock. Tom can do Tuesday the 1st of December at nine o'clock. Which would suit you?");
    expect(readBack(slot('the owner'), 'Kim', '+447700900123')).toContain("at nine o'clock, Cut, with the owner, for Kim");
    expect(offer).not.toMatch(OWNER_AS_NAME);
  });
});
