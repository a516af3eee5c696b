import { describe, expect, it } from 'vitest';
import { teamMember } from '../../test/helpers/team-members.js';
import { routingNote, withArticle } from './routing-note.js';

const sarah = teamMember(2, 'Sarah', { roleWord: 'stylist' });

describe('routingNote: what Call Details says routing did', () => {
  const askedSarah = { kind: 'asked', request: { kind: 'person', member: sarah } } as const;
  const askedEngineer = { kind: 'asked', request: { kind: 'role', roleWord: 'engineer' } } as const;

  it.each([
    [routingNote(askedSarah, 'Sarah', { is: 'put-through' }), 'Asked for Sarah: put through'],
    [routingNote(askedSarah, 'Sarah', { is: 'message', unreached: 'not-working' }), 'Asked for Sarah: not working now, message taken for Sarah'],
    [routingNote(askedSarah, 'Sarah', { is: 'message', unreached: 'did-not-answer' }), 'Asked for Sarah: did not answer, message taken for Sarah'],
    [routingNote(askedSarah, 'Sarah', { is: 'ringing' }), 'Asked for Sarah: the caller hung up while their phone rang'],
    [routingNote(askedEngineer, 'Tom', { is: 'put-through' }), 'Asked for an engineer: put through to Tom'],
    [routingNote(askedEngineer, 'Tom', { is: 'message', unreached: 'no-phone' }), 'Asked for an engineer: Tom has no confirmed phone, message taken for Tom'],
    [routingNote({ kind: 'rule', when: 'emergency' }, 'Tom', { is: 'put-through' }), 'Emergency: put through to Tom'],
    [routingNote({ kind: 'rule', when: 'new-enquiry' }, 'Office', { is: 'message' }), 'New enquiry: message taken for Office'],
    [routingNote({ kind: 'rule', when: 'booking' }, 'Tom', { is: 'booking', unreached: 'not-working' }), 'Booking: Tom not working now, the agent took the booking'],
    [routingNote({ kind: 'rule', when: 'closed' }, 'Ann', { is: 'message', unreached: 'no-line' }), 'Closed: Ann cannot be rung (no outbound line), message taken for Ann'],
  ])('%s', (note, expected) => {
    expect(note).toBe(expected);
  });

  it('an article by the role word’s first letter', () => {
    expect([withArticle('engineer'), withArticle('stylist'), withArticle('Office manager')]).toEqual(['an engineer', 'a stylist', 'an Office manager']);
  });
});
