import { describe, expect, it } from 'vitest';
import { chooseGreeting, GENERIC_GREETING, noticeAfterRecordedGreeting, RECORDING_NOTICE } from './greeting.js';

describe('chooseGreeting (SPEC §2 Call Greeting)', () => {
  it('uses the custom greeting when there is one, even with a business name', () => {
    expect(chooseGreeting({ callGreeting: '  Hi, Acme here. Leave a message!  ', businessName: 'Acme Plumbing' })).toBe('Hi, Acme here. Leave a message!');
  });

  it('uses the business-name template word for word when there is no custom greeting', () => {
    expect(chooseGreeting({ callGreeting: '   ', businessName: 'Acme Plumbing' })).toBe(
      "You've reached Acme Plumbing. For quality purposes, this call is being recorded. Please leave your name and message after the tone.",
    );
  });

  it('falls back to a generic greeting that still says the call is recorded', () => {
    expect(chooseGreeting({ callGreeting: null, businessName: null })).toBe(GENERIC_GREETING);
    expect(chooseGreeting({ callGreeting: '', businessName: ' ' })).toBe(GENERIC_GREETING);
    expect(GENERIC_GREETING).toMatch(/this call is being recorded/);
  });
});

describe('noticeAfterRecordedGreeting (issue 57: the owner’s recorded voicemail greeting)', () => {
  it('keeps the recording notice the business-name and generic greetings carry', () => {
    expect(noticeAfterRecordedGreeting({ callGreeting: null, businessName: 'Acme Plumbing' })).toBe(RECORDING_NOTICE);
    expect(noticeAfterRecordedGreeting({ callGreeting: '  ', businessName: null })).toBe(RECORDING_NOTICE);
    expect(chooseGreeting({ callGreeting: null, businessName: 'Acme Plumbing' })).toContain(RECORDING_NOTICE);
  });

  it('follows the owner’s own text: a notice when it speaks of recording, none when it does not', () => {
    expect(noticeAfterRecordedGreeting({ callGreeting: 'Hi, Acme here. Calls are recorded. Leave a message!', businessName: 'Acme' })).toBe(RECORDING_NOTICE);
    expect(noticeAfterRecordedGreeting({ callGreeting: 'Hi, Acme here. Leave a message!', businessName: 'Acme' })).toBeUndefined();
  });
});
