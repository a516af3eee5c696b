import { describe, expect, it } from 'vitest';
import { admitCallMyLine, callMyLineEndpointOf } from './admit.js';

const lines = new Map([['tc-0011223344556677', { userId: 7, did: '+447700900801' }]]);
const lineOf = (name: string) => lines.get(name);

describe('the core’s check of a test call at Stasis', () => {
  it('reads the endpoint from the channel name Asterisk gave, not from the call’s arguments', () => {
    expect(callMyLineEndpointOf('PJSIP/tc-0011223344556677-0000002a')).toBe('tc-0011223344556677');
    expect(callMyLineEndpointOf('PJSIP/uk-did-0000002a')).toBeUndefined();
    expect(callMyLineEndpointOf('Local/tc-0011223344556677-0000002a;1')).toBeUndefined();
  });

  it('admits the endpoint’s own number as its owner’s test call', () => {
    expect(admitCallMyLine({ channelName: 'PJSIP/tc-0011223344556677-00000001', did: '+447700900801', markedCallMyLine: true }, lineOf)).toEqual({ kind: 'call-my-line', userId: 7, did: '+447700900801' });
  });

  it('refuses another number from a Call my line endpoint, even when the arguments do not say test call (a split argument list)', () => {
    const v = admitCallMyLine({ channelName: 'PJSIP/tc-0011223344556677-00000001', did: '+447700900802', markedCallMyLine: false }, lineOf);
    expect(v).toEqual({ kind: 'refused', reason: 'to a number that is not the endpoint owner’s' });
    expect(admitCallMyLine({ channelName: 'PJSIP/tc-0011223344556677-00000001', did: '447700900801', markedCallMyLine: true }, lineOf).kind).toBe('refused');
  });

  it('refuses an endpoint it has not connected, and the Stasis mark of a Call my line call on any other channel', () => {
    expect(admitCallMyLine({ channelName: 'PJSIP/tc-ffffffffffffffff-00000001', did: '+447700900801', markedCallMyLine: true }, lineOf).kind).toBe('refused');
    expect(admitCallMyLine({ channelName: 'PJSIP/uk-did-00000001', did: '+447700900801', markedCallMyLine: true }, lineOf).kind).toBe('refused');
    expect(admitCallMyLine({ channelName: 'PJSIP/uk-did-00000001', did: '+447700900801', markedCallMyLine: false }, lineOf)).toEqual({ kind: 'ordinary' });
  });
});
