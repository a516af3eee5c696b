import { describe, expect, it } from 'vitest';
import { DEFAULT_REPEAT_CALLER_RULE, repeatAlertDue } from './repeat-caller.js';

describe('repeatAlertDue', () => {
  const rule = DEFAULT_REPEAT_CALLER_RULE;
  it('is due at the third call in the window', () => {
    expect(rule).toEqual({ calls: 3, windowMinutes: 20 });
    expect(repeatAlertDue(2, false, rule)).toBe(false);
    expect(repeatAlertDue(3, false, rule)).toBe(true);
    expect(repeatAlertDue(4, false, rule)).toBe(true);
  });
  it('is not due again when a call near this one already alerted the owner', () => {
    expect(repeatAlertDue(4, true, rule)).toBe(false);
  });
  it('never fires with a count of 0 (the rule switched off)', () => {
    expect(repeatAlertDue(5, false, { calls: 0, windowMinutes: 20 })).toBe(false);
  });
});
