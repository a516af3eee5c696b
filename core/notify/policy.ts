import { toE164 } from '../../contract/phone.js';
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
