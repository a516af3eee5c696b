import { describe, expect, it } from 'vitest';
import { NOT_A_PHONE, validateStaffPhone } from './validate-phone.js';

const guard = { ownerPhone: '01632 960000', applianceNumbers: ['+441632960001'], outboundAllow: [] };
const CAN_CALL = true;

describe('validateStaffPhone', () => {
  it('keeps a UK mobile in E.164, its code to be texted', () => {
    expect(validateStaffPhone(' 07400 123456 ', guard, CAN_CALL)).toEqual({ phone: '+447400123456', codeBy: 'text' });
    expect(validateStaffPhone('07400 123456', guard, !CAN_CALL)).toEqual({ phone: '+447400123456', codeBy: 'text' });
  });
  it('accepts a UK landline (a solicitor’s desk phone), its code to be read out on a call', () => {
    expect(validateStaffPhone('020 7946 0000', guard, CAN_CALL)).toEqual({ phone: '+442079460000', codeBy: 'call' });
    expect(validateStaffPhone('+44 113 496 0123', guard, CAN_CALL)).toEqual({ phone: '+441134960123', codeBy: 'call' });
  });
  it('refuses a landline with a sentence saying why when the box places no calls', () => {
    expect(validateStaffPhone('020 7946 0000', guard, !CAN_CALL)).toEqual({
      field: 'phone',
      message:
        '020 7946 0000 is a landline, which gets its code by a phone call, and this appliance does not place calls (its operator has not set up outbound calls). Enter a mobile, which gets its code by text.',
    });
  });
  it('refuses premium-rate and abroad with the toll-fraud sentences, landline or not, calls or not', () => {
    for (const canCall of [true, false]) {
      expect(validateStaffPhone('09098 790000', guard, canCall)).toEqual({
        field: 'phone',
        message: 'Calls are only put through to UK mobile and landline numbers: this is a premium-rate number (09…, 087…). Your operator can allow it.',
      });
      expect(validateStaffPhone('+33 1 23 45 67 89', guard, canCall)).toEqual({
        field: 'phone',
        message: 'Calls are only put through to UK mobile and landline numbers: this is an international number. Your operator can allow it.',
      });
      expect(validateStaffPhone('0345 000 0000', guard, canCall)).toMatchObject({ message: expect.stringMatching(/this is a non-geographic number \(03…, 05…\)/) });
    }
  });
  it('refuses the line that forwards to the appliance, its own numbers, and what is not a number', () => {
    expect(validateStaffPhone('+441632960000', guard, CAN_CALL)).toMatchObject({ message: 'This is the number that forwards to us: put calls through to a different phone.' });
    expect(validateStaffPhone('01632 960001', guard, CAN_CALL)).toMatchObject({ message: "This is one of this appliance's own numbers: it would ring itself." });
    expect(validateStaffPhone('not a phone', guard, CAN_CALL)).toEqual({ field: 'phone', message: NOT_A_PHONE });
  });
  it('lets an operator’s OUTBOUND_ALLOW prefix through', () => {
    expect(validateStaffPhone('+33612345678', { ...guard, outboundAllow: ['+336'] }, CAN_CALL)).toEqual({ phone: '+33612345678', codeBy: 'text' });
  });
});
