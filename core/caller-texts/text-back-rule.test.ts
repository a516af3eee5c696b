import { describe, expect, it } from 'vitest';
import { countSms } from '../../contract/sms-segments.js';
import { defaultTextBackWording, numberRange, TEXT_BACK_DEFAULTS, textBackVerdict, type FinishedCall } from './text-back-rule.js';

const missed: FinishedCall = { status: 'missed', fromNumber: '+447700900123', callerTag: null, period: 'open', testCall: false, screenedBy: null };
const on = { ...TEXT_BACK_DEFAULTS, enabled: true };

describe('textBackVerdict', () => {
  it('texts a UK mobile caller who left no message, when the owner turned it on', () => {
    expect(textBackVerdict(missed, on)).toEqual({ send: true });
    expect(textBackVerdict(missed, TEXT_BACK_DEFAULTS)).toMatchObject({ send: false, why: 'text-back is off' });
  });
  it('never texts a withheld caller, a landline, a number abroad, a blocked or refused caller', () => {
    for (const fromNumber of ['anonymous', '', '+441632960123', '+442079460123', '+33612345678']) {
      expect(textBackVerdict({ ...missed, fromNumber }, on).send, fromNumber).toBe(false);
    }
    expect(textBackVerdict({ ...missed, callerTag: 'blocked' }, on).send).toBe(false);
    expect(textBackVerdict({ ...missed, callerTag: 'withheld-refused' }, on).send).toBe(false);
  });
  it('never texts back a screened nuisance call (issue 43), however it was screened', () => {
    for (const screenedBy of ['summary', 'owner', 'box'] as const) {
      expect(textBackVerdict({ ...missed, screenedBy }, on)).toEqual({ send: false, why: 'a screened nuisance call' });
    }
  });
  it('never texts a caller who left a voicemail or was answered, nor the owner\'s test call', () => {
    expect(textBackVerdict({ ...missed, status: 'voicemail' }, on).send).toBe(false);
    expect(textBackVerdict({ ...missed, status: 'answered' }, on).send).toBe(false);
    expect(textBackVerdict({ ...missed, testCall: true }, on).send).toBe(false);
  });
  it('follows the owner\'s hours choice', () => {
    expect(textBackVerdict(missed, { ...on, hours: 'closed' }).send).toBe(false);
    expect(textBackVerdict({ ...missed, period: 'closed' }, { ...on, hours: 'closed' }).send).toBe(true);
    expect(textBackVerdict(missed, { ...on, hours: 'open' }).send).toBe(true);
  });
});

describe('the default wording and ranges', () => {
  it('is one GSM-7 SMS for a business name of ordinary length', () => {
    expect(countSms(defaultTextBackWording('Dan Jones Plumbing & Heating Ltd'))).toMatchObject({ encoding: 'GSM-7', segments: 1 });
  });
  it('puts numbers in blocks of 100', () => {
    expect(numberRange('+447700900123')).toBe(numberRange('+447700900199'));
    expect(numberRange('+447700900123')).not.toBe(numberRange('+447700900223'));
  });
});
