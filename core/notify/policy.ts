import { isUkLandline, toE164 } from '../../contract/phone.js';
import type { Channel } from './gateway.js';

export interface NotificationPrefs {
  smsEnabled: boolean;
  whatsappEnabled: boolean;
  notificationNumber: string | null;
  /** The business phone from sign-up ("We'll send call notifications to this number"): the fallback once confirmed. */
  phoneNumber: string | null;
  /** When the sign-up phone's code came back (or the owner predates codes): until then it gets nothing. */
  phoneConfirmedAt: Date | null;
}

export type NotificationPlan =
  | { kind: 'send'; to: string; channels: Channel[] }
  /** The owner switched both channels off: nothing to send and nothing wrong. */
  | { kind: 'off' }
  /** The owner wants texts but there is nowhere valid to send them: reported on the call. */
  | { kind: 'unreachable'; problem: string };

/**
 * The number texts to the owner go to, as stored: the notification number, or else the sign-up
 * phone once confirmed; '' when neither. Also who may answer those texts (core/followup).
 * An unconfirmed sign-up phone is whatever someone typed into the anonymous form: never used.
 */
export function confirmedTextNumber(p: Pick<NotificationPrefs, 'notificationNumber' | 'phoneNumber' | 'phoneConfirmedAt'>): string {
  return p.notificationNumber?.trim() || (p.phoneConfirmedAt ? p.phoneNumber?.trim() : '') || '';
}

/** Who gets told about a call, and how, from the owner's notification settings. */
export function planNotification(p: NotificationPrefs): NotificationPlan {
  const channels: Channel[] = [];
  if (p.smsEnabled) channels.push('sms');
  if (p.whatsappEnabled) channels.push('whatsapp');
  if (channels.length === 0) return { kind: 'off' };
  const raw = confirmedTextNumber(p);
  if (!raw) {
    const waiting = p.phoneNumber?.trim();
    if (!waiting) return { kind: 'unreachable', problem: 'No notification number is set: add one under Notification Settings.' };
    const n = toE164(waiting) ?? waiting;
    // A landline gets no code (core/outbound/dialable.ts), so there is no code to enter.
    if (isUkLandline(n)) {
      return {
        kind: 'unreachable',
        problem: `Nothing was texted: your number ${n} is a landline, and landlines cannot receive texts. Add the mobile you want call texts on under Notification Settings.`,
      };
    }
    return {
      kind: 'unreachable',
      problem: `Nothing was texted: your number ${n} is not confirmed yet. Confirm it under Notification Settings: enter the code we sent to ${n}, or save the number there to get a new one.`,
    };
  }
  const to = toE164(raw);
  if (!to) {
    return {
      kind: 'unreachable',
      problem: `The notification number "${raw}" is not a valid phone number: include the country code, e.g. +44 7700 900123.`,
    };
  }
  return { kind: 'send', to, channels };
}
