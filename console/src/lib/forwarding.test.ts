import { describe, expect, it } from 'vitest';
import { forwardingCodes } from './forwarding';

describe('forwarding codes', () => {
  it('builds the three conditions and the cancel code', () => {
    expect(forwardingCodes('+447700900123')).toEqual({
      unanswered: '*61*+447700900123#',
      busy: '*67*+447700900123#',
      all: '*21*+447700900123#',
      cancel: '##002#',
    });
  });
});
