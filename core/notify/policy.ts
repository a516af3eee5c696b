import type { Channel } from './gateway.js';

export interface NotificationPrefs {
  smsEnabled: boolean;
  whatsappEnabled: boolean;
  notificationNumber: string | null;
  /** The business phone from sign-up ("We'll send call notifications to this number"): the fallback. */
  phoneNumber: string | null;
}

export type NotificationPlan =
  | { kind: 'send'; to: string; channels: Channel[] }
  /** The owner switched both channels off: nothing to send and nothing wrong. */
  | { kind: 'off' }
  /** The owner wants texts but there is nowhere valid to send them: reported on the call. */
  | { kind: 'unreachable'; problem: string };

/** Who gets told about a call, and how, from the owner's notification settings. */
export function planNotification(p: NotificationPrefs): NotificationPlan {
  const channels: Channel[] = [];
  if (p.smsEnabled) channels.push('sms');
  if (p.whatsappEnabled) channels.push('whatsapp');
  if (channels.length === 0) return { kind: 'off' };
  const raw = p.notificationNumber?.trim() || p.phoneNumber?.trim() || '';
  if (!raw) return { kind: 'unreachable', problem: 'No notification number is set: add one under Notification Settings.' };
  const to = toE164(raw);
  if (!to) {
    return {
      kind: 'unreachable',
      problem: `The notification number "${raw}" is not a valid phone number: include the country code, e.g. +44 7700 900123.`,
    };
  }
  return { kind: 'send', to, channels };
}

/**
 * A number as owners type it, in E.164: "+44 7700 900123", "07700 900123",
 * "0044 7700 900123" and "+44 (0)7700 900123" all become +447700900123. UK national
 * numbers are assumed (the product serves UK businesses); null when it cannot be a number.
 */
export function toE164(raw: string): string | null {
  let n = raw.replace(/[\s\-.()]/g, '');
  n = n.replace(/^\+44\(?0\)?/, '+44').replace(/^\+440/, '+44');
  if (n.startsWith('00')) n = `+${n.slice(2)}`;
  else if (/^0\d{9,10}$/.test(n)) n = `+44${n.slice(1)}`;
  else if (/^44\d{10}$/.test(n)) n = `+${n}`;
  return /^\+[1-9]\d{6,14}$/.test(n) ? n : null;
}
