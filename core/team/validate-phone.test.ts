import { describe, expect, it } from 'vitest';
import { NOT_A_PHONE, validateStaffPhone } from './validate-phone.js';

const guard = { ownerPhone: '01632 960000', applianceNumbers: ['+441632960001'], outboundAllow: [] };

describe('validateStaffPhone', () => {
  it('keeps a UK mobile in E.164', () => {
    expect(validateStaffPhone(' 07400 123456 ', guard)).toBe('+447400123456');
  });
  it('refuses premium-rate and abroad with the toll-fraud sentences', () => {
    expect(validateStaffPhone('09098 790000', guard)).toEqual({
      field: 'phone',
      message: 'Calls are only put through to UK mobile and landline numbers: this is a premium-rate number (09…, 087…). Your operator can allow it.',
    });
    expect(validateStaffPhone('+33 6 12 34 56 78', guard)).toEqual({
      field: 'phone',
      message: 'Calls are only put through to UK mobile and landline numbers: this is an international number. Your operator can allow it.',
    });
  });
  it('refuses the line that forwards to the appliance, its own numbers, a landline for texts, and what is not a number', () => {
    expect(validateStaffPhone('+441632960000', guard)).toMatchObject({ message: 'This is the number that forwards to us: put calls through to a different phone.' });
    expect(validateStaffPhone('01632 960001', guard)).toMatchObject({ message: "This is one of this appliance's own numbers: it would ring itself." });
    expect(validateStaffPhone('020 7946 0000', guard)).toMatchObject({ message: expect.stringMatching(/is a landline, and landlines cannot receive texts/) });
    expect(validateStaffPhone('not a phone', guard)).toEqual({ field: 'phone', message: NOT_A_PHONE });
  });
  it('lets an operator’s OUTBOUND_ALLOW prefix through', () => {
    expect(validateStaffPhone('+33612345678', { ...guard, outboundAllow: ['+336'] })).toBe('+33612345678');
  });
});
