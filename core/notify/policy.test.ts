import { describe, expect, it } from 'vitest';
import { planNotification } from './policy.js';

const prefs = { smsEnabled: true, whatsappEnabled: false, notificationNumber: '+447700900123', phoneNumber: null };

describe('planNotification', () => {
  it('sends SMS to the notification number by default', () => {
    expect(planNotification(prefs)).toEqual({ kind: 'send', to: '+447700900123', channels: ['sms'] });
  });

  it('sends on both channels when both are on', () => {
    expect(planNotification({ ...prefs, whatsappEnabled: true })).toMatchObject({ channels: ['sms', 'whatsapp'] });
  });

  it('falls back to the business phone given at sign-up', () => {
    expect(planNotification({ ...prefs, notificationNumber: ' ', phoneNumber: '07700 900456' })).toMatchObject({ to: '+447700900456' });
  });

  it('sends nothing, and reports nothing, when both channels are off', () => {
    expect(planNotification({ ...prefs, smsEnabled: false, notificationNumber: null })).toEqual({ kind: 'off' });
  });

  it('reports a missing or unusable number instead of sending', () => {
    expect(planNotification({ ...prefs, notificationNumber: null })).toEqual({
      kind: 'unreachable',
      problem: 'No notification number is set: add one under Notification Settings.',
    });
    const bad = planNotification({ ...prefs, notificationNumber: 'ring the office' });
    expect(bad.kind).toBe('unreachable');
    if (bad.kind === 'unreachable') expect(bad.problem).toContain('include the country code');
  });
});
