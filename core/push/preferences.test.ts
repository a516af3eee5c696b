import { describe, expect, it } from 'vitest';
import { deviceWants, inQuietHours, londonMinute, type DevicePreferences } from './preferences.js';

const prefs = (p: Partial<DevicePreferences> = {}): DevicePreferences => ({ calls: 'all', bookings: true, callerTexts: true, quietStart: null, quietEnd: null, ...p });

describe('quiet hours, in London time', () => {
  it('reads London wall-clock time in winter (GMT) and summer (BST)', () => {
    expect(londonMinute(Date.parse('2026-01-15T22:30:00Z'))).toBe(22 * 60 + 30);
    expect(londonMinute(Date.parse('2026-07-15T22:30:00Z'))).toBe(23 * 60 + 30);
  });

  it('a stretch across midnight (22:00–07:00) holds late at night and early in the morning, not by day; its end is not in it', () => {
    const at = (iso: string) => inQuietHours(new Date(iso), '22:00', '07:00');
    expect(at('2026-01-15T23:10:00Z')).toBe(true);
    expect(at('2026-01-16T06:59:00Z')).toBe(true);
    expect(at('2026-01-16T07:00:00Z')).toBe(false);
    expect(at('2026-01-16T12:00:00Z')).toBe(false);
    // 21:30 UTC in July is 22:30 in London.
    expect(at('2026-07-15T21:30:00Z')).toBe(true);
  });

  it('a daytime stretch (12:00–14:00) holds only between its times; none, or equal times, never silence', () => {
    expect(inQuietHours(new Date('2026-01-15T12:30:00Z'), '12:00', '14:00')).toBe(true);
    expect(inQuietHours(new Date('2026-01-15T14:30:00Z'), '12:00', '14:00')).toBe(false);
    expect(inQuietHours(new Date('2026-01-15T12:30:00Z'), null, null)).toBe(false);
    expect(inQuietHours(new Date('2026-01-15T12:30:00Z'), '12:00', '12:00')).toBe(false);
  });
});

describe('which alerts a device takes', () => {
  const noon = new Date('2026-01-15T12:00:00Z');
  it('every call: ordinary and urgent calls; urgent only: urgent calls alone; none: no calls', () => {
    expect([deviceWants(prefs(), 'call', noon), deviceWants(prefs(), 'urgent', noon)]).toEqual([true, true]);
    expect([deviceWants(prefs({ calls: 'urgent' }), 'call', noon), deviceWants(prefs({ calls: 'urgent' }), 'urgent', noon)]).toEqual([false, true]);
    expect([deviceWants(prefs({ calls: 'none' }), 'call', noon), deviceWants(prefs({ calls: 'none' }), 'urgent', noon)]).toEqual([false, false]);
  });

  it('bookings and caller texts by their own switches', () => {
    expect(deviceWants(prefs({ bookings: false }), 'booking', noon)).toBe(false);
    expect(deviceWants(prefs({ bookings: false }), 'caller-text', noon)).toBe(true);
    expect(deviceWants(prefs({ callerTexts: false }), 'caller-text', noon)).toBe(false);
  });

  it('quiet hours silence urgent calls too', () => {
    expect(deviceWants(prefs({ quietStart: '11:00', quietEnd: '13:00' }), 'urgent', noon)).toBe(false);
  });
});
