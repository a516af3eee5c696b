import { describe, expect, it } from 'vitest';
import { boxListed, DEFAULT_THRESHOLDS, markStanding, markWindowStart, MARK_WINDOW_DAYS, screenVerdict } from './verdict.js';

describe('screenVerdict', () => {
  it('lets through a number nobody marked', () => {
    expect(screenVerdict({ ownerMark: null, boxListed: false, action: 'reject' })).toEqual({ screen: false });
  });
  it('screens the owner\'s own SPAM with the owner\'s choice', () => {
    expect(screenVerdict({ ownerMark: 'spam', boxListed: false, action: 'message' })).toEqual({ screen: true, by: 'owner', action: 'message' });
  });
  it('screens a box-listed number for a business that said nothing', () => {
    expect(screenVerdict({ ownerMark: null, boxListed: true, action: 'reject' })).toEqual({ screen: true, by: 'box', action: 'reject' });
  });
  it('lets a box-listed number through to a business that allowed it', () => {
    expect(screenVerdict({ ownerMark: 'allow', boxListed: true, action: 'reject' })).toEqual({ screen: false });
  });
});

describe('boxListed', () => {
  it('lists at the default three businesses marking SPAM, and follows the admin\'s threshold', () => {
    expect(boxListed(2, DEFAULT_THRESHOLDS)).toBe(false);
    expect(boxListed(3, DEFAULT_THRESHOLDS)).toBe(true);
    expect(boxListed(3, { spamMarks: 5 })).toBe(false);
  });
});

describe('markStanding', () => {
  const now = new Date('2026-07-01T12:00:00Z');
  const day = 24 * 60 * 60 * 1000;
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * day);
  it('counts an active owner\'s mark inside the window, up to its last millisecond', () => {
    expect(markStanding({ markedAt: at(1), ownerActive: true, clearedAt: null }, now)).toBe('counts');
    expect(markStanding({ markedAt: markWindowStart(now), ownerActive: true, clearedAt: null }, now)).toBe('counts');
  });
  it('drops a mark older than the window without anything else happening', () => {
    expect(markStanding({ markedAt: at(MARK_WINDOW_DAYS + 1), ownerActive: true, clearedAt: null }, now)).toBe('expired');
  });
  it('drops a suspended (or otherwise not active) owner\'s mark at once, whatever its age', () => {
    expect(markStanding({ markedAt: at(1), ownerActive: false, clearedAt: null }, now)).toBe('owner-not-active');
  });
  it('drops a mark made before the admin cleared the number, and counts one made after', () => {
    expect(markStanding({ markedAt: at(2), ownerActive: true, clearedAt: at(1) }, now)).toBe('before-clearing');
    expect(markStanding({ markedAt: at(1), ownerActive: true, clearedAt: at(1) }, now)).toBe('before-clearing');
    expect(markStanding({ markedAt: at(0.5), ownerActive: true, clearedAt: at(1) }, now)).toBe('counts');
  });
});
