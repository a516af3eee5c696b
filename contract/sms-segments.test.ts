import { describe, expect, it } from 'vitest';
import { countSms } from './sms-segments.js';

describe('countSms', () => {
  it('counts plain text as GSM-7: 160 characters fit one SMS, 161 need two parts of 153', () => {
    expect(countSms('a'.repeat(160))).toEqual({ characters: 160, segments: 1, encoding: 'GSM-7' });
    expect(countSms('a'.repeat(161))).toEqual({ characters: 161, segments: 2, encoding: 'GSM-7' });
    expect(countSms('a'.repeat(306)).segments).toBe(2);
    expect(countSms('a'.repeat(307)).segments).toBe(3);
  });

  it('£ is GSM-7, an em dash or an emoji makes the whole text UCS-2 (70 a part, 67 once split)', () => {
    expect(countSms('£'.repeat(160)).encoding).toBe('GSM-7');
    expect(countSms('Sorry we missed you — reply here')).toMatchObject({ encoding: 'UCS-2', segments: 1 });
    expect(countSms('—'.repeat(70)).segments).toBe(1);
    expect(countSms('—'.repeat(71)).segments).toBe(2);
    expect(countSms('Thanks 👍').encoding).toBe('UCS-2');
  });

  it('the extension characters count two in GSM-7', () => {
    expect(countSms('€'.repeat(80))).toMatchObject({ encoding: 'GSM-7', segments: 1 });
    expect(countSms('€'.repeat(81))).toMatchObject({ encoding: 'GSM-7', segments: 2 });
  });

  it('an empty text is no SMS', () => {
    expect(countSms('')).toEqual({ characters: 0, segments: 0, encoding: 'GSM-7' });
  });
});
