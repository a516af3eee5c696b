import { PUSH_CALL_CHOICES, PUSH_TEXT_DELAY_MAX_MINUTES, type PushCallChoice } from '../../contract/push-alert.js';
import { minuteOfDay } from './preferences.js';

// The rules for what the console sends about a device (issue 54), before any I/O: every refusal
// is a sentence the console shows as it is.

const MAX_ENDPOINT = 2000;
const MAX_DEVICE_NAME = 60;

export type Verdict<T> = { ok: true; value: T } | { ok: false; message: string; field: string };

const refuse = (field: string, message: string): { ok: false; message: string; field: string } => ({ ok: false, message, field });

/** A browser's subscription as the console posts it (PushSubscription.toJSON() plus a name). */
export interface SubscribeInput {
  endpoint: string;
  p256dh: string;
  auth: string;
  name: string;
}

/** Bytes of a base64url text, or null when it is not base64url. */
function base64urlBytes(text: string): Buffer | null {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(text)) return null;
  return Buffer.from(text.replace(/=+$/, ''), 'base64url');
}

/**
 * The endpoint's shape: an https:// address with a host and no user name or password. Where it
 * points (a public address) is checked apart, with DNS (endpoint-guard.ts).
 */
export function parseEndpoint(raw: unknown): Verdict<URL> {
  if (typeof raw !== 'string' || !raw.trim()) return refuse('endpoint', 'The browser sent no push address (endpoint); turn alerts on again');
  if (raw.length > MAX_ENDPOINT) return refuse('endpoint', `The push address (endpoint) must be at most ${MAX_ENDPOINT.toLocaleString('en-GB')} characters`);
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return refuse('endpoint', 'The push address (endpoint) is not a web address');
  }
  if (url.protocol !== 'https:') return refuse('endpoint', 'The push address (endpoint) must start with https://');
  if (!url.hostname) return refuse('endpoint', 'The push address (endpoint) is not a web address');
  if (url.username || url.password) return refuse('endpoint', 'The push address (endpoint) must not contain a user name or password');
  return { ok: true, value: url };
}

/** A device's name: what the console suggested from the user agent, or what the owner typed. */
function parseDeviceName(raw: unknown): Verdict<string> {
  const name = typeof raw === 'string' ? raw.replace(/\s+/g, ' ').trim() : '';
  if (!name) return refuse('name', 'Give this device a name, e.g. "Sam\'s iPhone"');
  if (name.length > MAX_DEVICE_NAME) return refuse('name', `The device name must be at most ${MAX_DEVICE_NAME} characters`);
  return { ok: true, value: name };
}

/** The subscribe body: endpoint, keys.p256dh (a P-256 public key) and keys.auth (16 bytes), name. */
export function parseSubscription(body: { endpoint?: unknown; keys?: { p256dh?: unknown; auth?: unknown } | null; name?: unknown }): Verdict<SubscribeInput> {
  const endpoint = parseEndpoint(body.endpoint);
  if (!endpoint.ok) return endpoint;
  const p256dh = typeof body.keys?.p256dh === 'string' ? base64urlBytes(body.keys.p256dh) : null;
  // An uncompressed P-256 point: 0x04, then X and Y (RFC 8291 §3.1).
  if (!p256dh || p256dh.length !== 65 || p256dh[0] !== 0x04) return refuse('keys.p256dh', 'The browser\'s key (keys.p256dh) is not a P-256 public key; turn alerts on again');
  const auth = typeof body.keys?.auth === 'string' ? base64urlBytes(body.keys.auth) : null;
  if (!auth || auth.length !== 16) return refuse('keys.auth', 'The browser\'s secret (keys.auth) must be 16 bytes; turn alerts on again');
  const name = parseDeviceName(body.name);
  if (!name.ok) return name;
  return { ok: true, value: { endpoint: endpoint.value.toString(), p256dh: p256dh.toString('base64url'), auth: auth.toString('base64url'), name: name.value } };
}

/** A device's preferences as the console changes them; a field left out is kept. */
export interface PreferencesChange {
  name?: string;
  calls?: PushCallChoice;
  bookings?: boolean;
  callerTexts?: boolean;
  quietStart?: string | null;
  quietEnd?: string | null;
}

/** The update body. Quiet hours go in pairs: both times, or both null (none). */
export function parsePreferences(body: Record<string, unknown>): Verdict<PreferencesChange> {
  const change: PreferencesChange = {};
  if (body.name !== undefined) {
    const name = parseDeviceName(body.name);
    if (!name.ok) return name;
    change.name = name.value;
  }
  if (body.calls !== undefined) {
    if (!PUSH_CALL_CHOICES.includes(body.calls as PushCallChoice)) return refuse('calls', 'Calls must be "all", "urgent" or "none"');
    change.calls = body.calls as PushCallChoice;
  }
  for (const key of ['bookings', 'callerTexts'] as const) {
    if (body[key] === undefined) continue;
    if (typeof body[key] !== 'boolean') return refuse(key, `${key === 'bookings' ? 'Bookings' : 'Caller texts'} must be on (true) or off (false)`);
    change[key] = body[key];
  }
  const hasStart = body.quietStart !== undefined;
  const hasEnd = body.quietEnd !== undefined;
  if (hasStart || hasEnd) {
    if (!hasStart || !hasEnd || (body.quietStart === null) !== (body.quietEnd === null)) {
      return refuse(hasStart ? 'quietEnd' : 'quietStart', 'Give quiet hours both a start and an end, or turn them off');
    }
    if (body.quietStart !== null) {
      for (const key of ['quietStart', 'quietEnd'] as const) {
        if (typeof body[key] !== 'string' || minuteOfDay(body[key]) === null) return refuse(key, `Quiet hours ${key === 'quietStart' ? 'start' : 'end'} must be a time such as 22:00`);
      }
      if (body.quietStart === body.quietEnd) return refuse('quietEnd', 'Quiet hours must end at another time than they start');
    }
    change.quietStart = body.quietStart as string | null;
    change.quietEnd = body.quietEnd as string | null;
  }
  return { ok: true, value: change };
}

/** The owner's "text me only if the push was not opened within N minutes": 1–60, or null for off. */
export function parseTextDelay(raw: unknown): Verdict<number | null> {
  if (raw === null) return { ok: true, value: null };
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 1 || raw > PUSH_TEXT_DELAY_MAX_MINUTES) {
    return refuse('textDelayMinutes', `Minutes before the text must be a whole number from 1 to ${PUSH_TEXT_DELAY_MAX_MINUTES}, or off`);
  }
  return { ok: true, value: raw };
}
