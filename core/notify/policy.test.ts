import { describe, expect, it } from 'vitest';
import { planNotification } from './policy.js';

const prefs = { smsEnabled: true, whatsappEnabled: false, notificationNumber: '+447700900123', phoneNumber: null, phoneConfirmedAt: null };

describe('planNotification', () => {
  it('sends SMS to the notification number by default', () => {
    expect(planNotification(prefs)).toEqual({ kind: 'send', to: '+447700900123', channels: ['sms'] });
  });

  it('sends on both channels when both are on', () => {
    expect(planNotification({ ...prefs, whatsappEnabled: true })).toMatchObject({ channels: ['sms', 'whatsapp'] });
  });

  it('falls back to the business phone given at sign-up once it is confirmed', () => {
    expect(planNotification({ ...prefs, notificationNumber: ' ', phoneNumber: '07700 900456', phoneConfirmedAt: new Date() })).toMatchObject({ to: '+447700900456' });
  });

  it('never texts an unconfirmed sign-up phone, and says how to confirm it', () => {
    expect(planNotification({ ...prefs, notificationNumber: null, phoneNumber: '+447700900456' })).toEqual({
      kind: 'unreachable',
      problem:
        'Nothing was texted: your number +447700900456 is not confirmed yet. Confirm it under Notification Settings: enter the code we sent to +447700900456, or save the number there to get a new one.',
    });
  });

  it('asks an owner who signed up with a landline for a mobile: no code went there to enter (issue 57 item 6)', () => {
    expect(planNotification({ ...prefs, notificationNumber: null, phoneNumber: '020 7946 0000' })).toEqual({
      kind: 'unreachable',
      problem:
        'Nothing was texted: your number +442079460000 is a landline, and landlines cannot receive texts. Add the mobile you want call texts on under Notification Settings.',
    });
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
