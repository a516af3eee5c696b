import { describe, expect, it } from 'vitest';
import { turnCredentials } from './turn.js';

describe('TURN credentials for a test call', () => {
  it('are coturn’s use-auth-secret form: expiry:label, HMAC-SHA1 of it under the shared secret (checked with openssl dgst -sha1 -hmac)', () => {
    const c = turnCredentials({ url: 'turn:box.example.co.uk:3478', secret: 'north' }, 1, 1_800_000_900_000);
    expect(c).toEqual({ urls: 'turn:box.example.co.uk:3478', username: '1800000900:owner-1', credential: '5amQcn3JyT/P4o74ZIEPwn8CV0M=' });
  });

  it('expire with the call’s own credentials (the next whole second), labelled by owner', () => {
    expect(turnCredentials({ url: 'turn:x:3478', secret: 's' }, 42, 1_800_000_060_001).username).toBe('1800000061:owner-42');
  });
});
