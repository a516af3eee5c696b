import { describe, expect, it } from 'vitest';
import { dialRefusal } from '../../../core/outbound/dialable';
import { TRANSFER_EXAMPLE, callHandlingTags, callerTagLabel, changedFields, handlingSummaries, periodLabel, transferDetail } from './call-handling';

describe('call-handling display rules', () => {
  it('shows the transfer outcome, with the talk time when put through', () => {
    expect(transferDetail({ transferOutcome: 'connected', transferTalkSeconds: 95 })).toBe('Put through, talked 1:35');
    expect(transferDetail({ transferOutcome: 'connected', transferTalkSeconds: null })).toBe('Put through');
    expect(transferDetail({ transferOutcome: 'no-answer', transferTalkSeconds: null })).toBe('No answer');
    expect(transferDetail({ transferOutcome: 'declined', transferTalkSeconds: null })).toBe('Declined (sent to voicemail)');
    expect(transferDetail({ transferOutcome: null, transferTalkSeconds: null })).toBeNull();
  });

  it('tags a transferred VIP with both, and a blocked caller as Blocked', () => {
    expect(callHandlingTags({ callerTag: 'vip', transferOutcome: 'connected' }).map((t) => t.label)).toEqual(['Transferred', 'VIP']);
    expect(callHandlingTags({ callerTag: 'blocked', transferOutcome: null }).map((t) => t.label)).toEqual(['Blocked']);
    expect(callHandlingTags({ callerTag: null, transferOutcome: 'busy' })).toEqual([]);
    expect(callHandlingTags({ callerTag: null, transferOutcome: null, agentBusy: true }).map((t) => t.label)).toEqual(['Agents busy']);
    expect(callHandlingTags({ callerTag: null, transferOutcome: null, agentVoicemailReason: 'slow' }).map((t) => t.label)).toEqual(['Answered in voicemail mode: the assistant was too slow on this box']);
    expect(callHandlingTags({ callerTag: null, transferOutcome: null, agentVoicemailReason: 'model' }).map((t) => t.label)).toEqual(['Answered in voicemail mode: the language model was still downloading']);
    expect(callHandlingTags({ callerTag: null, transferOutcome: null, testCall: true }).map((t) => t.label)).toEqual(['Test call']);
    expect(callHandlingTags({ callerTag: null, transferOutcome: null, direction: 'call-back' }).map((t) => t.label)).toEqual(['Call-back by the assistant']);
    expect(callHandlingTags({ callerTag: null, transferOutcome: null, direction: 'in' })).toEqual([]);
    expect(callHandlingTags({ callerTag: null, transferOutcome: null, agentStalled: true }).map((t) => t.label)).toEqual(['Agent stalled']);
  });

  it('names tags and periods', () => {
    expect(callerTagLabel('withheld-refused')).toBe('Withheld, refused');
    expect(periodLabel('closed')).toBe('Closed hours');
    expect(periodLabel(null)).toBeNull();
  });
});

describe('the call handling form', () => {
  it('sends only the fields the owner changed', () => {
    const saved = { transferNumber: '+447911123456', hoursEnabled: false, hours: { mon: [{ open: '09:00', close: '17:30' }] } };
    expect(changedFields({ ...saved, hoursEnabled: true }, saved)).toEqual({ hoursEnabled: true });
    expect(changedFields({ ...saved, hours: { mon: [{ open: '08:00', close: '17:30' }] } }, saved)).toEqual({ hours: { mon: [{ open: '08:00', close: '17:30' }] } });
    expect(changedFields(saved, saved)).toEqual({});
  });

  it('offers as the transfer example a number the box puts calls through to', () => {
    expect(dialRefusal(TRANSFER_EXAMPLE, [])).toBeNull();
    expect(dialRefusal('07911 123456', [])).toMatch(/Channel Islands/);
  });

  it("sums up each section on one line: a phone's closed sections show it (issue 44)", () => {
    const base = {
      transferNumber: '',
      transferTimeoutSeconds: 20,
      hoursEnabled: true,
      hours: { sat: [{ open: '10:00', close: '13:00' }], mon: [] },
      holidayNations: [] as ('scotland' | 'northern-ireland')[],
      closedMode: 'agent' as const,
      withheld: 'refuse' as const,
      blockList: [],
      vipList: ['+447700900666', '+447700900667'],
    };
    expect(handlingSummaries(base, true)).toEqual({
      transfer: 'No number to put calls through to yet',
      hours: 'On: open 1 day a week, no bank holidays',
      answering: 'Closed hours: AI Voice Agent. Withheld: turn them away politely',
      lists: '0 blocked, 2 VIP',
    });
    const more = { ...base, transferNumber: ' +447400123456 ', holidayNations: ['scotland', 'northern-ireland'] as ('scotland' | 'northern-ireland')[] };
    expect(handlingSummaries(more, true)).toMatchObject({ transfer: 'Put through to +44 740 012 3456, ring for 20 s', hours: 'On: open 1 day a week, bank holidays of Scotland, Northern Ireland' });
    // A box that cannot transfer says so whatever number is stored.
    expect(handlingSummaries(more, false).transfer).toBe('Not available yet.');
  });
});
