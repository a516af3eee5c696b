import { describe, expect, it } from 'vitest';
import { canMarkSpam, canRingBack } from './callback.js';

const voicemail = { fromNumber: '+447700900123', status: 'voicemail' as const };

describe('canRingBack', () => {
  it('offers a caller with a number', () => {
    expect(canRingBack(voicemail)).toBe(true);
  });

  it.each([
    ['a screened nuisance call', { screenedBy: 'summary' }],
    ['a blocked caller', { callerTag: 'blocked' }],
    ['the owner\'s own test call', { testCall: true }],
    ['a withheld number', { fromNumber: 'anonymous' }],
  ] as const)('offers nobody to ring for %s', (_name, change) => {
    expect(canRingBack({ ...voicemail, ...change })).toBe(false);
  });
});

describe('canMarkSpam', () => {
  it('lets the owner judge a screened call, so a wrong screening can be undone with NOT SPAM', () => {
    expect(canMarkSpam({ ...voicemail, screenedBy: 'summary' } as Parameters<typeof canMarkSpam>[0])).toBe(true);
  });

  it('is not for an answered call, a test call or a withheld number', () => {
    expect(canMarkSpam({ ...voicemail, status: 'answered' })).toBe(false);
    expect(canMarkSpam({ ...voicemail, testCall: true })).toBe(false);
    expect(canMarkSpam({ ...voicemail, fromNumber: 'anonymous' })).toBe(false);
  });
});
