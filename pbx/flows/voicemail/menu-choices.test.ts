import { describe, expect, it } from 'vitest';
import type { CallTeamMember } from '../../../core/ports/call-path.js';
import { menuChoices } from './menu-choices.js';

const member = (id: number, name: string, phone: string | null, working = true): CallTeamMember => ({ id, name, otherNames: [], roleWord: null, isOwner: id === 1, working, phone });

describe('the voicemail menu’s choices', () => {
  it('offers nothing with no team, or only one person reachable by phone', () => {
    expect(menuChoices({ members: [member(1, 'Owner', '+447700900001')] })).toEqual([]);
    expect(menuChoices({ members: [member(1, 'Owner', '+447700900001'), member(2, 'Sarah', null)] })).toEqual([]);
  });

  it('numbers everyone with a confirmed phone in the team’s order, working now or not', () => {
    const choices = menuChoices({ members: [member(1, 'Owner', null), member(2, 'Sarah', '+447700900002'), member(3, 'Tom', '+447700900003', false)] });
    expect(choices).toEqual([
      { digit: '1', member: { id: 2, name: 'Sarah', working: true, phone: '+447700900002' } },
      { digit: '2', member: { id: 3, name: 'Tom', working: false, phone: '+447700900003' } },
    ]);
  });

  it('stops at 9: one key per person', () => {
    const many = Array.from({ length: 12 }, (_, i) => member(i + 1, `M${i + 1}`, `+4477009000${String(i + 10)}`));
    expect(menuChoices({ members: many }).map((c) => c.digit)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
  });
});
