import { describe, expect, it } from 'vitest';
import { parsePreferences, parseSubscription, parseTextDelay } from './validate.js';

const point = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url');
const auth = Buffer.alloc(16, 3).toString('base64url');
const good = { endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys: { p256dh: point, auth }, name: ' Sam’s   Pixel ' };

describe('a subscription from the console', () => {
  it('is taken with its keys and a tidied name', () => {
    expect(parseSubscription(good)).toEqual({ ok: true, value: { endpoint: good.endpoint, p256dh: point, auth, name: 'Sam’s Pixel' } });
  });

  it('is refused, naming the field, for an http or odd endpoint, keys of the wrong size, or no name', () => {
    const refused = (body: object) => {
      const v = parseSubscription(body);
      return v.ok ? null : [v.field, v.message];
    };
    expect(refused({ ...good, endpoint: 'http://push.example/x' })).toEqual(['endpoint', 'The push address (endpoint) must start with https://']);
    expect(refused({ ...good, endpoint: 'https://user:pw@push.example/x' })?.[0]).toBe('endpoint');
    expect(refused({ ...good, endpoint: 'not a url' })?.[0]).toBe('endpoint');
    expect(refused({ ...good, endpoint: undefined })?.[0]).toBe('endpoint');
    expect(refused({ ...good, keys: { p256dh: Buffer.concat([Buffer.from([2]), Buffer.alloc(64, 7)]).toString('base64url'), auth } })?.[0]).toBe('keys.p256dh');
    expect(refused({ ...good, keys: { p256dh: point, auth: Buffer.alloc(8).toString('base64url') } })?.[0]).toBe('keys.auth');
    expect(refused({ ...good, keys: null })?.[0]).toBe('keys.p256dh');
    expect(refused({ ...good, name: '   ' })?.[0]).toBe('name');
    expect(refused({ ...good, name: 'x'.repeat(61) })?.[0]).toBe('name');
  });
});

describe('a device’s preferences', () => {
  it('takes what is sent and keeps what is left out', () => {
    expect(parsePreferences({ calls: 'urgent', callerTexts: false })).toEqual({ ok: true, value: { calls: 'urgent', callerTexts: false } });
    expect(parsePreferences({ quietStart: '22:00', quietEnd: '07:00' })).toEqual({ ok: true, value: { quietStart: '22:00', quietEnd: '07:00' } });
    expect(parsePreferences({ quietStart: null, quietEnd: null })).toEqual({ ok: true, value: { quietStart: null, quietEnd: null } });
  });

  it('refuses an unknown choice, a non-boolean switch, half a quiet-hours pair, a time that is not one, or equal times', () => {
    const why = (body: Record<string, unknown>) => {
      const v = parsePreferences(body);
      return v.ok ? null : v.message;
    };
    expect(why({ calls: 'some' })).toBe('Calls must be "all", "urgent" or "none"');
    expect(why({ bookings: 'yes' })).toBe('Bookings must be on (true) or off (false)');
    expect(why({ quietStart: '22:00' })).toBe('Give quiet hours both a start and an end, or turn them off');
    expect(why({ quietStart: '22:00', quietEnd: null })).toBe('Give quiet hours both a start and an end, or turn them off');
    expect(why({ quietStart: '24:00', quietEnd: '07:00' })).toBe('Quiet hours start must be a time such as 22:00');
    expect(why({ quietStart: '22:00', quietEnd: '7am' })).toBe('Quiet hours end must be a time such as 22:00');
    expect(why({ quietStart: '22:00', quietEnd: '22:00' })).toBe('Quiet hours must end at another time than they start');
  });
});

describe('the delayed text’s minutes', () => {
  it('are 1 to 60, or null for off', () => {
    expect(parseTextDelay(null)).toEqual({ ok: true, value: null });
    expect(parseTextDelay(15)).toEqual({ ok: true, value: 15 });
    for (const bad of [0, 61, 2.5, '5', undefined]) expect(parseTextDelay(bad).ok).toBe(false);
  });
});
