import { describe, expect, it } from 'vitest';
import { messageOr, serverMessage } from './errors';

describe('error messages shown on screens', () => {
  it("uses the server's message field", () => {
    expect(serverMessage({ bodyText: '{"message":"Current password is incorrect"}' })).toBe('Current password is incorrect');
  });
  it('falls back when the body is empty, not JSON or has no message', () => {
    expect(messageOr({ bodyText: '' }, 'Failed to change password')).toBe('Failed to change password');
    expect(messageOr({ bodyText: '<html>' }, 'X')).toBe('X');
    expect(messageOr({ bodyText: '{"error":"x"}' }, 'X')).toBe('X');
    expect(messageOr(new TypeError('Failed to fetch'), 'X')).toBe('X');
    expect(messageOr(null, 'X')).toBe('X');
  });
});
