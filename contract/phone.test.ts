import { describe, expect, it } from 'vitest';
import { formatAdminPhone, formatPhone, isE164, isUkLandline, isUkMobile, matchesPhoneQuery, phoneQuery, spellingsOf, storedNumber, toE164 } from './phone.js';

describe('toE164', () => {
  it.each([
    ['+447700900123', '+447700900123'],
    ['+44 7700 900123', '+447700900123'],
    ['07700 900123', '+447700900123'],
    ['0044 7700 900123', '+447700900123'],
    ['+44 (0)7700 900123', '+447700900123'],
    ['447700900123', '+447700900123'],
    ['07700-900-123', '+447700900123'],
    ['+1 415 555 0100', '+14155550100'],
    ['0207 946 0000', '+442079460000'],
  ])('%s → %s', (raw, e164) => expect(toE164(raw)).toBe(e164));

  it.each(['', 'hello', 'call me', '123', '12345', '07700', '+0123456789', '+0 123 456 789', '07700 9001234567890', 'call me on 07700900123'])(
    'refuses %j',
    (raw) => expect(toE164(raw)).toBeNull(),
  );

  it('takes only numbers already written in E.164 as E.164', () => {
    expect(isE164('+447700900001')).toBe(true);
    expect(isE164('07700900001')).toBe(false);
    expect(isE164('+44 7700 900001')).toBe(false);
  });
});

describe('storedNumber', () => {
  it('maps the spellings UK trunks use to the stored E.164 form', () => {
    expect(['+447700900001', '447700900001', '07700900001', '00447700900001', '+44 7700 900001'].map(storedNumber)).toEqual(
      Array(5).fill('+447700900001'),
    );
  });

  it('keeps what is not a number as the trunk sent it', () => {
    expect(storedNumber('anonymous')).toBe('anonymous');
    expect(storedNumber(' Restricted ')).toBe('Restricted');
  });
});

describe('spellingsOf', () => {
  it('lists every spelling a UK number may have been stored under', () => {
    expect(spellingsOf('07700922222').sort()).toEqual(
      ['+447700922222', '447700922222', '00447700922222', '07700922222', '07700 922222', '+44 7700 922222'].sort(),
    );
    expect(spellingsOf('+44 7700 922222')).toEqual(spellingsOf('07700922222'));
  });

  it('is empty for something that is not a number', () => {
    expect(spellingsOf('someone')).toEqual([]);
  });
});

describe('display formats (SPEC.md §9)', () => {
  it('shows customer screens +CC XXX XXX XXXX', () => {
    expect(formatPhone('+447700900123')).toBe('+44 770 090 0123');
    expect(formatPhone(null)).toBe('N/A');
    expect(formatPhone('anonymous')).toBe('anonymous');
  });

  it('shows the admin numbers table +CC XXXX XXX XXX(X)', () => {
    expect(formatAdminPhone('+447700900123')).toBe('+44 7700 900 123');
    expect(formatAdminPhone('+4477009001234')).toBe('+44 7700 900 1234');
    expect(formatAdminPhone('')).toBe('N/A');
  });
});

describe('phone-number search', () => {
  const stored = '+447700900382';
  const finds = (q: string) => {
    const query = phoneQuery(q);
    return query !== null && matchesPhoneQuery(stored, query);
  };

  it.each(['+44 770 090 0382', '07700 900382', '447700900382', '07700900382', '0044 7700 900382', '+44 (0)7700 900382', '7700900382', '770 090 0382', '07700 9', '+44 7700'])(
    'finds +447700900382 from %j',
    (q) => expect(finds(q)).toBe(true),
  );

  it.each(['07700 900383', '+44 770 090 0383', '07800 900382', '+1 7700900382'])('does not find +447700900382 from %j', (q) =>
    expect(finds(q)).toBe(false),
  );

  it('leaves text that is not a number to the free-text rule', () => {
    expect(phoneQuery('boiler')).toBeNull();
    expect(phoneQuery('call 0770')).toBeNull();
    expect(phoneQuery('  ')).toBeNull();
  });
});

describe('isUkMobile', () => {
  it('takes UK mobiles in any spelling', () => {
    for (const n of ['07700 900123', '+447911123456', '0044 7400 123456', '+447624123456']) expect(isUkMobile(n), n).toBe(true);
  });
  it('refuses landlines (01/02), 03, 08, personal numbers (070), pagers (076), abroad and withheld', () => {
    for (const n of ['01632 960123', '020 7946 0123', '0300 123 4567', '0800 123 4567', '07012 345678', '07600 123456', '+33612345678', 'anonymous', '', null]) {
      expect(isUkMobile(n), String(n)).toBe(false);
    }
  });
});

describe('isUkLandline', () => {
  it('takes geographic numbers (01/02) in any spelling', () => {
    for (const n of ['01632 960123', '020 7946 0123', '+441134960000', '0044 161 496 0000']) expect(isUkLandline(n), n).toBe(true);
  });
  it('refuses mobiles, 03, 08, abroad and withheld', () => {
    for (const n of ['07700 900123', '0300 123 4567', '0800 123 4567', '+33112345678', 'anonymous', '', null]) expect(isUkLandline(n), String(n)).toBe(false);
  });
});
