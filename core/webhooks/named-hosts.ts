import net from 'node:net';
import ipaddr from 'ipaddr.js';

// The hosts an operator names to let through the address guard (CALENDAR_ALLOWED_PRIVATE_HOSTS):
// written the way the guard compares them, so "NAS.lan.", "nas.lan" and "[::1]" match the URL
// host they mean, and an address matches however the URL spelled it (URL itself turns 127.1
// and 2130706433 into 127.0.0.1; IPv6 is compared in ipaddr.js's normal form).

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** The canonical form of a host name or IP address, or null when it is neither. */
export function canonicalHost(raw: string): string | null {
  let host = raw.trim().toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (net.isIP(host)) return ipaddr.parse(host).toNormalizedString();
  host = host.replace(/\.$/, '');
  // Only dotted-quad IPv4 is an address here; "127.1" or "2130706433" in a setting is a mistake, not a name.
  if (/^[0-9.]+$/.test(host) || /^0x/.test(host)) return null;
  return HOST_NAME.test(host) ? host : null;
}

/** Whether a URL's host (brackets and case as URL gives them) is one of the named hosts. */
export function isNamedHost(host: string, named: readonly string[]): boolean {
  if (named.length === 0) return false;
  const canonical = canonicalHost(host);
  return canonical !== null && named.includes(canonical);
}
