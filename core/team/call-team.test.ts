import { describe, expect, it } from 'vitest';
import type { StaffRow } from '../db/schema.js';
import { callTeamAt } from './call-team.js';
import { DEFAULT_TEAM_SETTINGS } from './store.js';

const allWeek = [{ open: '00:00', close: '23:59' }];
const business = { hoursEnabled: false, hours: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] }, holidayNations: [], transferNumber: '+447700900001' };
const row = (over: Partial<StaffRow>): StaffRow => ({
  id: 1, userId: 9, name: 'Owner', otherNames: [], roleWord: null, isOwner: false, phone: null, phoneConfirmedAt: null,
  pendingPhone: null, phoneCodeHash: null, phoneCodeExpiresAt: null, phoneCodeWrongAttempts: 0, hours: null,
  icalUrlSealed: null, caldavUrl: null, caldavUser: null, caldavPasswordSealed: null, loginUserId: null, inviteEmail: null,
  view: 'own', position: 0, removedAt: null, createdAt: new Date(0), ...over,
});
const wednesday = new Date('2026-12-02T10:00:00Z');

describe('the team as a call sees it', () => {
  it('rings only confirmed phones; the owner without one of their own is rung on their put-through number', () => {
    const team = callTeamAt(
      [row({ id: 1, isOwner: true }), row({ id: 2, name: 'Sarah', phone: '+447700900002', phoneConfirmedAt: new Date(0) }), row({ id: 3, name: 'Tom', phone: '+447700900003' })],
      DEFAULT_TEAM_SETTINGS, business, wednesday,
    );
    expect(team.members.map((m) => [m.name, m.phone])).toEqual([['Owner', '+447700900001'], ['Sarah', '+447700900002'], ['Tom', null]]);
  });

  it("names today's on-call member by the London weekday, and nobody when they have left", () => {
    const rows = [row({ id: 1, isOwner: true }), row({ id: 2, name: 'Sarah', hours: { mon: allWeek, tue: allWeek, wed: [], thu: [], fri: [], sat: [], sun: [] } })];
    expect(callTeamAt(rows, { ...DEFAULT_TEAM_SETTINGS, rota: { wed: 2, thu: 1 } }, business, wednesday).onCallId).toBe(2);
    // 23:30 UTC on Wednesday 2 December is still Wednesday in London (GMT); the rota's Thursday starts at midnight.
    expect(callTeamAt(rows, { ...DEFAULT_TEAM_SETTINGS, rota: { thu: 1 } }, business, new Date('2026-12-02T23:30:00Z')).onCallId).toBe(null);
    expect(callTeamAt([rows[0]!], { ...DEFAULT_TEAM_SETTINGS, rota: { wed: 2 } }, business, wednesday).onCallId).toBe(null);
    expect(callTeamAt(rows, DEFAULT_TEAM_SETTINGS, business, wednesday).members.map((m) => m.working)).toEqual([true, false]);
  });
});
