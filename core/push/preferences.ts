import type { PushAlertKind, PushCallChoice } from '../../contract/push-alert.js';
import { DAY_MS, londonOffsetMs } from '../time/london-time.js';

// Which alerts a device takes (issue 54): pure rules, read by the sender before it enqueues.

/** What one device asked for in Notification Settings. */
export interface DevicePreferences {
  calls: PushCallChoice;
  bookings: boolean;
  callerTexts: boolean;
  /** London times HH:MM; both null = no quiet hours. */
  quietStart: string | null;
  quietEnd: string | null;
}

/** Minutes since midnight of an HH:MM time (00:00–23:59), or null when it is not one. */
export function minuteOfDay(hhmm: string): number | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(hhmm);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** The London wall-clock minute (0–1439) of instant `t`. */
export function londonMinute(t: number): number {
  const local = t + londonOffsetMs(t);
  return Math.floor((((local % DAY_MS) + DAY_MS) % DAY_MS) / 60_000);
}

/**
 * Whether London time `at` falls in the quiet hours [start, end). A stretch may cross midnight
 * (22:00–07:00); start equal to end means no quiet hours (a whole day's silence is "none").
 */
export function inQuietHours(at: Date, quietStart: string | null, quietEnd: string | null): boolean {
  if (!quietStart || !quietEnd) return false;
  const start = minuteOfDay(quietStart);
  const end = minuteOfDay(quietEnd);
  if (start === null || end === null || start === end) return false;
  const now = londonMinute(at.getTime());
  return start < end ? now >= start && now < end : now >= start || now < end;
}

/**
 * Whether a device takes an alert of this kind now. An urgent call alerts a device that takes
 * every call or urgent ones; a call that is not urgent only one that takes every call. Quiet
 * hours silence every kind, urgent calls too: the owner chose them, and the text still goes.
 */
export function deviceWants(prefs: DevicePreferences, kind: PushAlertKind, at: Date): boolean {
  if (inQuietHours(at, prefs.quietStart, prefs.quietEnd)) return false;
  switch (kind) {
    case 'urgent':
      return prefs.calls === 'all' || prefs.calls === 'urgent';
    case 'call':
      return prefs.calls === 'all';
    case 'booking':
      return prefs.bookings;
    case 'caller-text':
      return prefs.callerTexts;
  }
}
