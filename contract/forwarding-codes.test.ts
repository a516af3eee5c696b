import { describe, expect, it } from 'vitest';
import { isRingDelay, lineCodes } from './forwarding-codes.js';

const DID = '+447700900123';

describe('forwarding codes for the owner’s own line', () => {
  it('BT and other landlines: star codes with the appliance number in national format', () => {
    const c = lineCodes('landline', DID);
    expect(c.rows).toEqual([
      { label: 'All calls', set: '*21*07700900123#', check: '*#21#', cancel: '#21#' },
      { label: 'When unanswered', set: '*61*07700900123#', check: '*#61#', cancel: '#61#' },
      { label: 'When busy', set: '*67*07700900123#', check: '*#67#', cancel: '#67#' },
    ]);
    expect(c.cancelAll).toBeUndefined();
    expect(c.warning).toBeUndefined();
  });

  it('Virgin Media: all calls in national format, warning about its free voicemail', () => {
    const c = lineCodes('virgin', '07700 900123');
    expect(c.rows).toEqual([{ label: 'All calls', set: '*21*07700900123#', check: '*#21#', cancel: '#21#' }]);
    expect(c.warning).toBe('Forwarding does not work while Virgin Media’s free voicemail is on: turn it off first.');
  });

  it('mobiles: GSM codes in international format, the ring delay in the unanswered code, ##002# cancelling all', () => {
    const c = lineCodes('mobile', '07700 900123', 15);
    expect(c.rows).toEqual([
      { label: 'All calls', set: '**21*+447700900123#', check: '*#21#', cancel: '##21#' },
      { label: 'When unanswered (after 15 seconds)', set: '**61*+447700900123**15#', check: '*#61#', cancel: '##61#' },
      { label: 'When busy', set: '**67*+447700900123#', check: '*#67#', cancel: '##67#' },
      { label: 'When unreachable (off or no signal)', set: '**62*+447700900123#', check: '*#62#', cancel: '##62#' },
    ]);
    expect(c.cancelAll).toBe('##002#');
    expect(c.warning).toBe('If your voicemail answers in less than 15 seconds, calls go to voicemail and are not forwarded: set a shorter ring delay or a longer voicemail timer.');
  });

  it('a mobile ring delay is 5 to 30 seconds in steps of 5; anything else falls back to 20', () => {
    expect([5, 10, 30].every(isRingDelay)).toBe(true);
    expect([0, 4, 7, 35, 12.5].some(isRingDelay)).toBe(false);
    expect(lineCodes('mobile', DID, 7).rows[1]!.set).toBe('**61*+447700900123**20#');
  });
});

describe('a UK number in both spellings', () => {
  it.each(['+447700900123', '07700 900123', '+44 7700 900123', '00447700900123'])('%s', (n) => {
    expect(lineCodes('landline', n).rows[0]!.set).toBe('*21*07700900123#');
    expect(lineCodes('mobile', n).rows[0]!.set).toBe('**21*+447700900123#');
  });
});
