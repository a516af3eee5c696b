import { describe, expect, it } from 'vitest';
import { applicationServerKey, deviceSummary, pushSupport, suggestedDeviceName, type BrowserFacts } from './push';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';
const facts = (f: Partial<BrowserFacts> = {}): BrowserFacts => ({ userAgent: ANDROID, standalone: false, hasPushApi: true, workerRegistered: true, permission: 'default', ...f });

describe('whether this browser can take alerts', () => {
  it('an iPhone in Safari is told to add the console to the Home Screen; from the Home Screen it may', () => {
    expect(pushSupport(facts({ userAgent: IPHONE, hasPushApi: false }))).toBe('ios-home-screen');
    expect(pushSupport(facts({ userAgent: IPHONE, standalone: true }))).toBe('ready');
  });

  it('no service worker or no Push API: this browser cannot; notifications blocked: says so', () => {
    expect(pushSupport(facts({ workerRegistered: false }))).toBe('no-worker');
    expect(pushSupport(facts({ hasPushApi: false }))).toBe('no-worker');
    expect(pushSupport(facts({ permission: 'denied' }))).toBe('denied');
    expect(pushSupport(facts())).toBe('ready');
  });
});

describe('the device’s words', () => {
  it('suggests a name from the user agent', () => {
    expect(suggestedDeviceName(ANDROID)).toBe('Chrome on Android');
    expect(suggestedDeviceName(IPHONE)).toBe('Safari on iPhone');
    expect(suggestedDeviceName('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36 Edg/124.0')).toBe('Edge on Windows');
    expect(suggestedDeviceName('curl/8')).toBe('Browser');
  });

  it('says in one line what a device gets', () => {
    expect(deviceSummary({ calls: 'all', bookings: true, callerTexts: true, quietStart: null, quietEnd: null })).toBe('Every call, bookings, caller texts');
    expect(deviceSummary({ calls: 'urgent', bookings: false, callerTexts: false, quietStart: '22:00', quietEnd: '07:00' })).toBe('Urgent calls only · quiet 22:00–07:00');
  });

  it('turns the base64url key into its bytes', () => {
    const bytes = applicationServerKey('BAECAw');
    expect([...bytes]).toEqual([4, 1, 2, 3]);
  });
});
