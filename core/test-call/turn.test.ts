import { describe, expect, it } from 'vitest';
import { turnCredentials } from './turn.js';

describe('TURN credentials for a test call', () => {
  it('are coturn’s use-auth-secret form: expiry:label, HMAC-SHA1 of it under the shared secret (checked with openssl dgst -sha1 -hmac)', () => {
    const c = turnCredentials({ url: 'turn:box.example.co.uk:3478', secret: 'north' }, 'tc-1', new Date(1_800_000_000_000));
    expect(c).toEqual({ urls: 'turn:box.example.co.uk:3478', username: '1800000900:tc-1', credential: 'B5QExvF0WEiP4SK/uQxjJUrKNR4=' });
  });
});
