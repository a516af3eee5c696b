import { describe, expect, it } from 'vitest';
import { bookingLinkWarning } from './public-link.js';

describe('the booking links PUBLIC_URL makes', () => {
  it('warns when they point at this box itself (PUBLIC_URL unset or loopback)', () => {
    for (const url of ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000', 'http://box.localhost', 'http://0.0.0.0:3000']) {
      expect(bookingLinkWarning(url), url).toBe(
        `Booking texts carry links to ${url}, which callers cannot open: set PUBLIC_URL to the address this box is reached at (docs/configuration.md).`,
      );
    }
  });

  it('says nothing for an address callers can reach', () => {
    for (const url of ['https://calls.example.co.uk', 'http://203.0.113.10:3000', 'https://[2001:db8::1]']) expect(bookingLinkWarning(url), url).toBeNull();
  });
});
