import { describe, expect, it } from 'vitest';
import { liveLineEndpointOf } from './live-control.js';

describe('the PBX’s reading of a live line’s channel', () => {
  it('reads the endpoint Asterisk authenticated from the channel name, and nothing else', () => {
    expect(liveLineEndpointOf('PJSIP/lt-0011223344556677-0000002a')).toBe('lt-0011223344556677');
    expect(liveLineEndpointOf('PJSIP/tc-0011223344556677-0000002a')).toBeUndefined();
    expect(liveLineEndpointOf('Local/lt-0011223344556677-0000002a;1')).toBeUndefined();
    expect(liveLineEndpointOf('Snoop/1700000000.12-00000001')).toBeUndefined();
  });
});
