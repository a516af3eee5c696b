import { describe, expect, it } from 'vitest';
import { phoneQuery } from '../../../contract/phone';
import type { ApiAssignedUser, ApiProviderNumber } from '../../../contract/api';
import { csvFileName, filterNumbers, numbersCsv, numberStatus, providerSid, savingsFilter } from './numbers';

const now = new Date('2026-05-10T12:00:00Z');
const user = (over: Partial<ApiAssignedUser> = {}): ApiAssignedUser => ({
  businessName: 'Acme Plumbing',
  businessEmail: 'owner@acme.co.uk',
  email: 'owner@acme.co.uk',
  accountStatus: 'active',
  trialExpiresAt: null,
  ...over,
});
const num = (phoneNumber: string, assignedUser: ApiAssignedUser | null): ApiProviderNumber => ({
  twilioSid: `PN${phoneNumber.slice(-3)}`,
  phoneNumber,
  monthlyCost: 1,
  dateCreated: '2026-04-01T10:00:00Z',
  assignedUser,
});

describe('number status badge: first rule wins', () => {
  it('follows SPEC.md §4 in order', () => {
    expect(numberStatus(null, now)).toBe('Unassigned');
    expect(numberStatus(user({ accountStatus: 'expired', trialExpiresAt: '2026-05-11T00:00:00Z' }), now)).toBe('Expired');
    expect(numberStatus(user({ accountStatus: 'pending_approval' }), now)).toBe('Pending');
    expect(numberStatus(user({ trialExpiresAt: '2026-05-16T12:00:00Z' }), now)).toBe('Trial Ending Soon');
    expect(numberStatus(user({ accountStatus: 'suspended', trialExpiresAt: '2026-05-12T12:00:00Z' }), now)).toBe('Trial Ending Soon');
    expect(numberStatus(user({ trialExpiresAt: '2026-06-30T12:00:00Z' }), now)).toBe('Active');
    expect(numberStatus(user({ accountStatus: 'suspended' }), now)).toBe('suspended');
  });
});

describe('filter, search and CSV', () => {
  const list = [
    num('+447700900001', user()),
    num('+447700900002', user({ accountStatus: 'expired', businessName: 'Salon Bella', email: 'bella@x.uk', businessEmail: null })),
    num('+447700900003', null),
  ];
  it('filters and searches', () => {
    expect(filterNumbers(list, 'active', '')).toHaveLength(1);
    expect(filterNumbers(list, 'expired', '')[0]!.phoneNumber).toBe('+447700900002');
    expect(filterNumbers(list, 'unassigned', '')[0]!.phoneNumber).toBe('+447700900003');
    expect(filterNumbers(list, 'all', 'BELLA')).toHaveLength(1);
    expect(filterNumbers(list, 'all', '900003')).toHaveLength(1);
    expect(savingsFilter(1)).toBe('expired');
    expect(savingsFilter(0)).toBe('unassigned');
  });
  it.each(['07700 900002', '+44 7700 900 002', '+44 770 090 0002', '447700900002'])(
    'finds +447700900002 from %j on the admin numbers page, and only it',
    (q) => expect(filterNumbers(list, 'all', q, phoneQuery(q)).map((n) => n.phoneNumber)).toEqual(['+447700900002']),
  );
  it('finds the {provider}Sid field', () => {
    expect(providerSid(list[0]!, 'twilio')).toBe('PN001');
    expect(providerSid(list[0]!, 'static')).toBe('PN001');
  });
  it('builds the CSV with its columns, quoting and the file name', () => {
    const csv = numbersCsv([num('+447700900001', user({ businessName: 'Smith, Jones & "Co"' })), num('+447700900009', user({ businessName: '=HYPERLINK()' })), list[2]!], now);
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('Phone Number,Business Name,Email,Status,Monthly Cost,Purchase Date');
    expect(lines[1]).toBe('+447700900001,"Smith, Jones & ""Co""",owner@acme.co.uk,Active,£1.00,01/04/2026');
    expect(lines[2]).toContain(",'=HYPERLINK(),");
    expect(lines[3]).toBe('+447700900003,,,Unassigned,£1.00,01/04/2026');
    expect(csvFileName('twilio', now)).toBe('twilio-numbers-2026-05-10.csv');
  });
});
