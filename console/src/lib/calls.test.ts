import { describe, expect, it } from 'vitest';
import { phoneQuery } from '../../../contract/phone';
import { callStats, callStatsFromTotals, filterCalls, responseRate, toCallBackOnly, urgentOnly } from './calls';

const call = (status: 'answered' | 'missed' | 'voicemail', fromNumber = '+447700900001', aiSummary: string | null = null) => ({
  status,
  fromNumber,
  toNumber: '+447700900999',
  aiSummary,
});

describe('call logs', () => {
  it('response rate is rounded and 0 with no calls', () => {
    expect(responseRate(0, 0)).toBe(0);
    expect(responseRate(3, 2)).toBe(67);
    expect(responseRate(3, 1)).toBe(33);
  });
  it('counts the stat cards', () => {
    expect(callStats([call('answered'), call('missed'), call('voicemail')])).toEqual({ total: 3, answered: 1, missed: 1, responseRate: 33 });
  });
  it('searches numbers and the summary (case-insensitive) and filters by status', () => {
    const calls = [call('answered', '+441111', 'Boiler LEAK in kitchen'), call('missed', '+442222'), call('voicemail', '+443333', 'Quote')];
    expect(filterCalls(calls, 'leak', 'all')).toHaveLength(1);
    expect(filterCalls(calls, '2222', 'all')).toHaveLength(1);
    expect(filterCalls(calls, '900999', 'all')).toHaveLength(3);
    expect(filterCalls(calls, '', 'voicemail').map((c) => c.fromNumber)).toEqual(['+443333']);
    expect(filterCalls(calls, 'leak', 'missed')).toEqual([]);
  });
});

describe('phone-number search in Call Logs', () => {
  const calls = [call('voicemail', '+447700900382', 'Boiler'), call('missed', '+447700900383'), call('answered', '+14155550100')];
  it.each(['+44 770 090 0382', '07700 900382', '447700900382', '0044 7700 900382', '7700900382'])(
    'finds the caller shown as +44 770 090 0382 from %j, and only that caller',
    (q) => expect(filterCalls(calls, q, 'all', phoneQuery(q)).map((c) => c.fromNumber)).toEqual(['+447700900382']),
  );
  it('finds every call from the start of a number typed the national way', () => {
    expect(filterCalls(calls, '07700 90038', 'all', phoneQuery('07700 90038')).map((c) => c.fromNumber)).toEqual(['+447700900382', '+447700900383']);
  });
  it('matches the number the call was made to in any spelling as well', () => {
    expect(filterCalls(calls, '07700 900999', 'all', phoneQuery('07700 900999'))).toHaveLength(3);
  });
});

describe('callStatsFromTotals', () => {
  it('uses the server totals so the cards cover calls beyond the loaded page', () => {
    expect(callStatsFromTotals(1200, { answered: 300, missed: 600 })).toEqual({ total: 1200, answered: 300, missed: 600, responseRate: 25 });
    expect(callStatsFromTotals(0, { answered: 0, missed: 0 }).responseRate).toBe(0);
  });
});

describe('the To call back filter', () => {
  const c = (status: 'answered' | 'missed' | 'voicemail', fromNumber: string, calledBackAt: string | null = null) => ({ status, fromNumber, calledBackAt });
  it('keeps missed calls and voicemails with a number that are not marked called back', () => {
    const calls = [c('missed', '+441'), c('voicemail', '+442'), c('answered', '+443'), c('missed', ''), c('voicemail', '+445', '2026-11-22T10:00:00Z')];
    expect(toCallBackOnly(calls, true).map((x) => x.fromNumber)).toEqual(['+441', '+442']);
    expect(toCallBackOnly(calls, false)).toHaveLength(5);
  });
  it('never keeps the owner\'s own test call (their "Call my line" left a voicemail from the box\'s number)', () => {
    const calls = [{ ...c('voicemail', '+447700900999'), testCall: true }, { ...c('missed', '+441'), testCall: false }];
    expect(toCallBackOnly(calls, true).map((x) => x.fromNumber)).toEqual(['+441']);
  });
});

describe('the Urgent filter', () => {
  it('keeps only the calls judged urgent (not normal, low or not yet assessed)', () => {
    const calls = [{ id: 1, urgency: 'urgent' as const }, { id: 2, urgency: 'normal' as const }, { id: 3, urgency: 'low' as const }, { id: 4, urgency: null }, { id: 5, urgency: 'urgent' as const }];
    expect(urgentOnly(calls, true).map((x) => x.id)).toEqual([1, 5]);
    expect(urgentOnly(calls, false)).toHaveLength(5);
  });
});

describe('the Screened filter (issue 43)', () => {
  it('keeps only screened calls, and names why each was screened', async () => {
    const { screenedOnly, screenedLabel } = await import('./calls');
    const calls = [
      { id: 1, screenedBy: null, callClass: 'genuine' as const },
      { id: 2, screenedBy: 'summary' as const, callClass: 'recorded' as const },
      { id: 3, screenedBy: 'box' as const, callClass: null },
    ];
    expect(screenedOnly(calls, true).map((c) => c.id)).toEqual([2, 3]);
    expect(screenedOnly(calls, false)).toHaveLength(3);
    expect(calls.map(screenedLabel)).toEqual([null, 'Recorded message', 'Known nuisance number']);
    expect(screenedLabel({ screenedBy: 'owner', callClass: null })).toBe('On your spam list');
  });
});
