import { describe, expect, it } from 'vitest';
import { boxListed, DEFAULT_THRESHOLDS, screenVerdict } from './verdict.js';

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
  it('lists at the default three businesses marking SPAM, or three with nuisance calls in a day', () => {
    expect(boxListed({ businesses: 2, nuisanceBusinesses: 2 }, DEFAULT_THRESHOLDS)).toBe(false);
    expect(boxListed({ businesses: 3, nuisanceBusinesses: 0 }, DEFAULT_THRESHOLDS)).toBe(true);
    expect(boxListed({ businesses: 0, nuisanceBusinesses: 3 }, DEFAULT_THRESHOLDS)).toBe(true);
    expect(boxListed({ businesses: 3, nuisanceBusinesses: 0 }, { spamMarks: 5, nuisanceBusinesses: 3 })).toBe(false);
  });
});
