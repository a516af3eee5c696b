import { describe, expect, it } from 'vitest';
import type { EvalMessage } from '../set.js';
import { scoreSummary } from './summary-score.js';

const msg: EvalMessage = {
  id: 'm',
  voice: 'en-gb',
  speed: 160,
  noise: null,
  callerId: '+447700900999',
  transcript: 'Hi, this is Sarah Jones. My boiler needs servicing, can I book a visit? My number is oh seven seven double oh nine double oh one two three.',
  facts: { callerName: 'Sarah Jones', callbackNumber: '07700 900123', wants: ['boiler', 'servic'], urgency: 'normal', booking: true },
};

describe('summary field scoring', () => {
  it('a summary with every fact scores every field', () => {
    expect(scoreSummary(msg, { text: 'Sarah Jones wants to book a boiler service. Call her on 07700 900123.', urgency: 'normal' })).toEqual({
      callerName: true,
      callbackNumber: true,
      wants: true,
      urgency: true,
      booking: true,
    });
  });

  it('each fact is scored on its own', () => {
    expect(scoreSummary(msg, { text: 'A caller wants their boiler looked at. Call 07700 900124.', urgency: 'urgent' })).toEqual({
      callerName: false,
      callbackNumber: false,
      wants: false,
      urgency: false,
      booking: false,
    });
  });

  it('without a number given, the caller ID may be cited and no other number', () => {
    const none = { ...msg, facts: { ...msg.facts, callbackNumber: null, callerName: null, booking: false } };
    expect(scoreSummary(none, { text: 'A caller on +44 7700 900999 wants a boiler service.', urgency: 'normal' })).toMatchObject({ callbackNumber: true, callerName: null, booking: null });
    expect(scoreSummary(none, { text: 'A caller on 07700 900555 wants a boiler service.', urgency: 'normal' }).callbackNumber).toBe(false);
  });
});
