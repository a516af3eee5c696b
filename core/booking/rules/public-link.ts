import net from 'node:net';

/**
 * Booking confirmations carry a link a caller opens on their own phone ("Add to your
 * calendar: …/api/booking/event/….ics"), made from PUBLIC_URL. Unset, PUBLIC_URL is
 * http://localhost:PORT, and so is any loopback address: a link no caller can open. The
 * operator is told once at start-up (issue 57 item 7); null when the links will work.
 */
export function bookingLinkWarning(publicUrl: string): string | null {
  const host = new URL(publicUrl).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (!isLoopback(host)) return null;
  return `Booking texts carry links to ${publicUrl}, which callers cannot open: set PUBLIC_URL to the address this box is reached at (docs/configuration.md).`;
}

function isLoopback(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (net.isIPv4(host)) return host.startsWith('127.') || host === '0.0.0.0';
  return host === '::1' || host === '::';
}
