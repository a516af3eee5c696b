import { describe, expect, it } from 'vitest';
import { OWNER_MEMBER_DEFAULT_NAME, sentenceStart, spokenNameOf } from './member-name.js';

describe('spokenNameOf: how a member is named to callers and in texts', () => {
  it('the owner\'s member still under its made-up name is "the owner", never "Owner"', () => {
    expect(spokenNameOf({ name: OWNER_MEMBER_DEFAULT_NAME, isOwner: true })).toBe('the owner');
    expect(spokenNameOf({ name: ' Owner ', isOwner: true })).toBe('the owner');
  });

  it('once the owner names themselves, their name', () => {
    expect(spokenNameOf({ name: 'Priya Shah', isOwner: true })).toBe('Priya Shah');
    // Only the made-up name itself stands in, not a name that begins with it.
    expect(spokenNameOf({ name: 'Owner Jones', isOwner: true })).toBe('Owner Jones');
  });

  it('any other member is named as the owner wrote them, even one the owner called "Owner"', () => {
    expect(spokenNameOf({ name: 'Sarah', isOwner: false })).toBe('Sarah');
    expect(spokenNameOf({ name: 'Owner', isOwner: false })).toBe('Owner');
  });
});

describe('sentenceStart', () => {
  it('capitalises a sentence that begins with "the owner", and leaves a name alone', () => {
    expect(sentenceStart("the owner isn't working right now.")).toBe("The owner isn't working right now.");
    expect(sentenceStart('Tom can do ten o\'clock.')).toBe("Tom can do ten o'clock.");
    expect(sentenceStart('')).toBe('');
  });
});
