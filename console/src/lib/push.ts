// Push alerts on this device (issue 54): what the browser can do, the name it suggests, and the
// words of the device list. Pure: the section (pages/notifications/PushDevicesSection.tsx) reads
// the browser and asks these.

/** What this browser can do about alerts, in the order the section checks it. */
export type PushSupport =
  /** Turn alerts on here. */
  | 'ready'
  /** An iPhone or iPad in Safari, not the console added to the Home Screen. */
  | 'ios-home-screen'
  /** The console's service worker is not registered (or the browser has no Push API). */
  | 'no-worker'
  /** The owner refused notifications to this site; only the browser's settings can undo it. */
  | 'denied';

export interface BrowserFacts {
  userAgent: string;
  /** `navigator.standalone` (iOS) or display-mode standalone: opened from the Home Screen. */
  standalone: boolean;
  hasPushApi: boolean;
  workerRegistered: boolean;
  permission: 'default' | 'granted' | 'denied' | 'unsupported';
}

const isIos = (ua: string) => /iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && /Mobile\//.test(ua));

export function pushSupport(f: BrowserFacts): PushSupport {
  // iOS offers the Push API only to a Home Screen web app (16.4+): say how to get there first.
  if (isIos(f.userAgent) && !f.standalone) return 'ios-home-screen';
  if (!f.hasPushApi || !f.workerRegistered) return 'no-worker';
  if (f.permission === 'denied') return 'denied';
  return 'ready';
}

export const SUPPORT_WORDS: Record<Exclude<PushSupport, 'ready'>, string> = {
  'ios-home-screen': 'On an iPhone or iPad, alerts need the console added to the Home Screen (iOS 16.4 or later): tap Share, then Add to Home Screen, and open the console from there.',
  'no-worker': 'This browser cannot take alerts from the console. Open the console in Chrome, Edge, Firefox or Safari (on an iPhone, from the Home Screen).',
  denied: 'Notifications for this site are blocked in this browser. Allow them in the browser’s site settings, then turn alerts on here.',
};

/** The name the console suggests for this device, from its user agent ("Chrome on Android"). */
export function suggestedDeviceName(ua: string): string {
  const browser = /Edg\//.test(ua) ? 'Edge' : /Firefox\//.test(ua) ? 'Firefox' : /SamsungBrowser\//.test(ua) ? 'Samsung Internet' : /Chrome\//.test(ua) || /CriOS\//.test(ua) ? 'Chrome' : /Safari\//.test(ua) ? 'Safari' : 'Browser';
  const system = /iPhone/.test(ua) ? 'iPhone' : /iPad/.test(ua) ? 'iPad' : /Android/.test(ua) ? 'Android' : /Windows/.test(ua) ? 'Windows' : /Mac OS X|Macintosh/.test(ua) ? 'Mac' : /Linux/.test(ua) ? 'Linux' : null;
  return system ? `${browser} on ${system}` : browser;
}

/** The VAPID public key (base64url) as pushManager.subscribe's applicationServerKey takes it. */
export function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const raw = atob(base64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/** One line saying what a device gets: "Every call, bookings, caller texts · quiet 22:00–07:00". */
export function deviceSummary(d: { calls: 'all' | 'urgent' | 'none'; bookings: boolean; callerTexts: boolean; quietStart: string | null; quietEnd: string | null }): string {
  const parts = [d.calls === 'all' ? 'Every call' : d.calls === 'urgent' ? 'Urgent calls only' : 'No calls'];
  if (d.bookings) parts.push('bookings');
  if (d.callerTexts) parts.push('caller texts');
  const what = parts.join(', ');
  return d.quietStart && d.quietEnd ? `${what} · quiet ${d.quietStart}–${d.quietEnd}` : what;
}
