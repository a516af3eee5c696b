import { describe, expect, it } from 'vitest';
import { dialRefusal, textRefusal } from './dialable.js';

const refusal = (why: string) => `Calls are only put through to UK mobile and landline numbers: this is ${why}. Your operator can allow it.`;

describe('numbers the appliance dials', () => {
  it.each([
    ['0909 879 0000', 'a premium-rate number (09…, 087…)'],
    ['0871 234 5678', 'a premium-rate number (09…, 087…)'],
    ['070 1234 5678', 'a personal number (070…), which can be forwarded anywhere at the caller’s cost'],
    ['+882 1234 5678', 'an international number'],
    ['+870 773 111 111', 'an international number'],
    ['+239 222 1234', 'an international number'],
    ['+1 900 555 0123', 'an international number'],
    ['0845 123 4567', 'a premium-rate number (09…, 087…)'],
    ['0300 123 4567', 'a non-geographic number (03…, 05…)'],
    ['0800 123 4567', 'a freephone number (080…)'],
    ['076 4123 4567', 'a pager number (076…)'],
    ['07624 123456', 'a Channel Islands or Isle of Man number'],
    ['07700 900123', 'not a UK number in service'],
  ])('refuses %s: %s', (number, why) => {
    expect(dialRefusal(number, [])).toBe(refusal(why));
  });

  it.each([
    ['a UK mobile', '07400 123456'],
    ['a UK mobile in E.164', '+447400123456'],
    ['a London landline', '020 7946 0000'],
    ['a Leeds landline', '0113 496 0000'],
  ])('dials %s (%s)', (_kind, number) => {
    expect(dialRefusal(number, [])).toBeNull();
  });

  it("dials what the operator's allow-list names, and nothing beside it", () => {
    const allow = ['+3531', '+447700900'];
    expect(dialRefusal('+353 1 234 5678', allow)).toBeNull();
    expect(dialRefusal('07700 900123', allow)).toBeNull();
    expect(dialRefusal('+353 87 123 4567', allow)).toBe(refusal('an international number'));
    expect(dialRefusal('0909 879 0000', allow)).toBe(refusal('a premium-rate number (09…, 087…)'));
  });
});

describe('numbers a confirmation code is texted to', () => {
  it('texts UK mobiles, and refuses a landline with the reason and what to do (issue 57 item 6)', () => {
    expect(textRefusal('07400 123456', [])).toBeNull();
    for (const [typed, national] of [['020 7946 0000', '020 7946 0000'], ['+441134960000', '0113 496 0000']]) {
      expect(textRefusal(typed!, []), typed).toBe(
        `Call texts go to a mobile: ${national} is a landline, and landlines cannot receive texts. Enter the mobile you want call texts on.`,
      );
    }
    expect(textRefusal('0909 879 0000', [])).toBe('Codes are only texted to UK mobile numbers: this is a premium-rate number (09…, 087…). Your operator can allow it.');
  });

  it("texts a landline the operator's allow-list names (a provider that turns texts into speech)", () => {
    expect(textRefusal('020 7946 0000', ['+44207946'])).toBeNull();
  });
});
