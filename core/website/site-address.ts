import { bareHost, refusedRange, type GuardOptions } from '../webhooks/address-guard.js';

// The address an owner types for their website, checked before anything is fetched: the crawler's
// guard checks every request again (DNS may say otherwise later); this only refuses early what
// can never be read, with a sentence the console shows under the field.

export type SiteAddress = { url: string } | { error: string };

/** "www.example.co.uk" → "https://www.example.co.uk/"; a sentence when it cannot be an owner's public site. */
export function normaliseSiteAddress(raw: string, guard: Pick<GuardOptions, 'allowLoopback'> = {}): SiteAddress {
  const typed = raw.trim();
  if (!typed) return { error: "Enter your website's address, e.g. www.example.co.uk." };
  // No scheme typed: https is preferred (issue 55), the crawler falls back to what the site serves.
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(typed) ? typed : `https://${typed}`;
  let u: URL;
  try {
    u = new URL(withScheme);
  } catch {
    return { error: "That is not a website address; enter it as it appears in a browser, e.g. www.example.co.uk." };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { error: 'Your website\'s address must start with http:// or https://.' };
  if (u.username || u.password) return { error: 'Leave the user name and password out of the address: only public pages can be read.' };
  const host = bareHost(u.hostname);
  // The crawl's guard seam (a test's site on loopback) holds here too, or the site could never be saved.
  const allowLoopback = typeof guard.allowLoopback === 'function' ? guard.allowLoopback(host) : guard.allowLoopback;
  const range = refusedRange(host, { allowLoopback });
  if (range !== 'not an IP address') {
    // An IP literal: the guard's own rule decides, in its own words.
    if (range) return { error: `${host} is a ${range} address; only websites on the public internet can be read.` };
    return { url: u.toString() };
  }
  if (!host.includes('.') || host.startsWith('.') || host.endsWith('.')) return { error: 'Enter the whole address of your website, with its ending, e.g. example.co.uk.' };
  u.hash = '';
  return { url: u.toString() };
}
