import { describe, expect, it } from 'vitest';
import { admitTestCall, testCallEndpointOf } from './admit.js';

const lines = new Map([['tc-0011223344556677', { userId: 7, did: '+447700900801' }]]);
const lineOf = (name: string) => lines.get(name);

describe('the core’s check of a test call at Stasis', () => {
  it('reads the endpoint from the channel name Asterisk gave, not from the call’s arguments', () => {
    expect(testCallEndpointOf('PJSIP/tc-0011223344556677-0000002a')).toBe('tc-0011223344556677');
    expect(testCallEndpointOf('PJSIP/uk-did-0000002a')).toBeUndefined();
    expect(testCallEndpointOf('Local/tc-0011223344556677-0000002a;1')).toBeUndefined();
  });

  it('admits the endpoint’s own number as its owner’s test call', () => {
    expect(admitTestCall({ channelName: 'PJSIP/tc-0011223344556677-00000001', did: '+447700900801', markedTestCall: true }, lineOf)).toEqual({ kind: 'test-call', userId: 7, did: '+447700900801' });
  });

  it('refuses another number from a test-call endpoint, even when the arguments do not say test call (a split argument list)', () => {
    const v = admitTestCall({ channelName: 'PJSIP/tc-0011223344556677-00000001', did: '+447700900802', markedTestCall: false }, lineOf);
    expect(v).toEqual({ kind: 'refused', reason: 'to a number that is not the endpoint owner’s' });
    expect(admitTestCall({ channelName: 'PJSIP/tc-0011223344556677-00000001', did: '447700900801', markedTestCall: true }, lineOf).kind).toBe('refused');
  });

  it('refuses an endpoint it has not connected, and a test-call mark on any other channel', () => {
    expect(admitTestCall({ channelName: 'PJSIP/tc-ffffffffffffffff-00000001', did: '+447700900801', markedTestCall: true }, lineOf).kind).toBe('refused');
    expect(admitTestCall({ channelName: 'PJSIP/uk-did-00000001', did: '+447700900801', markedTestCall: true }, lineOf).kind).toBe('refused');
    expect(admitTestCall({ channelName: 'PJSIP/uk-did-00000001', did: '+447700900801', markedTestCall: false }, lineOf)).toEqual({ kind: 'ordinary' });
  });
});
