import dns from 'node:dns';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { RetryableError } from '../jobs/retryable.js';
import { isNamedHost } from './named-hosts.js';

/** One address a host name resolves to, as `dns.lookup` gives it. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a host name resolves to (the seam tests stub to play a hostile DNS). */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (host) =>
  (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/** Why an address may not receive webhooks: the kind of network it belongs to. */
const REFUSED_LABEL: Record<string, string> = {
  loopback: 'loopback',
  private: 'private',
  uniqueLocal: 'private',
  linkLocal: 'link-local',
  carrierGradeNat: 'carrier-grade NAT',
  unspecified: 'unspecified',
  multicast: 'multicast',
  broadcast: 'broadcast',
  reserved: 'reserved',
};

/**
 * Null when `address` is an ordinary public unicast address, else what it is. An allow-list:
 * everything ipaddr.js does not call `unicast` is refused (reserved, benchmarking, NAT64,
 * 6to4, Teredo too), and an IPv4-mapped or IPv4-compatible IPv6 address is judged as the
 * IPv4 address it carries.
 */
export function refusedRange(address: string, opts: { allowLoopback?: boolean; allowPrivate?: boolean } = {}): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6') ip = embeddedIpv4(ip as ipaddr.IPv6) ?? ip;
  const range = ip.range();
  if (range === 'unicast') return null;
  if (range === 'loopback' && (opts.allowLoopback || opts.allowPrivate)) return null;
  if (opts.allowPrivate && PRIVATE_RANGES.has(range)) return null;
  return REFUSED_LABEL[range] ?? `reserved (${range})`;
}

/**
 * What an operator-named host (a LAN calendar) may resolve to: a network of the operator's own.
 * Link-local (the cloud's metadata address), unspecified, multicast and reserved stay refused.
 */
const PRIVATE_RANGES = new Set(['private', 'uniqueLocal', 'carrierGradeNat']);

/**
 * The IPv4 address an IPv6 one carries: IPv4-mapped (::ffff:a.b.c.d) and the deprecated
 * IPv4-compatible form (first 96 bits zero, ::a.b.c.d; URL writes [::127.0.0.1] as ::7f00:1,
 * which ipaddr.js calls plain unicast) are reached as that IPv4 address by a dual-stack host.
 * `::` and `::1` keep their IPv6 meaning.
 */
function embeddedIpv4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  if (ip.isIPv4MappedAddress()) return ip.toIPv4Address();
  const p = ip.parts;
  if (p.slice(0, 6).some((x) => x !== 0) || (p[6] === 0 && p[7]! <= 1)) return null;
  return ipaddr.fromByteArray(ip.toByteArray().slice(12)) as ipaddr.IPv4;
}

/** A webhook host that resolves to (or is) an address the appliance will not post to. */
/** Another attempt would meet the same refusal (and DNS that flips is not to be waited out): not retryable. */
export class RefusedAddressError extends RetryableError {
  /** What was found, e.g. "hooks.example resolves to 10.0.0.5, a private address". */
  readonly detail: string;
  constructor(
    readonly host: string,
    readonly address: string,
    readonly range: string,
  ) {
    const detail = host === address ? `${address} is a ${range} address` : `${host} resolves to ${address}, a ${range} address`;
    super(`${detail}; webhooks only go to public internet addresses`, false);
    this.detail = detail;
  }
}

/** The host name could not be resolved at all (retryable at delivery: DNS may recover). */
export class UnresolvableHostError extends RetryableError {
  constructor(readonly host: string, cause: unknown) {
    super(`${host} could not be resolved (${cause instanceof Error && 'code' in cause ? String((cause as { code: unknown }).code) : String(cause)})`, true);
  }
}

export interface GuardOptions {
  resolver?: Resolver;
  /**
   * Test-only seam: lets a test's local receiver on 127.0.0.1 through. Passed in code by the
   * test that builds the service, never read from the environment, so no operator can set it.
   * A function lets through only the hosts it names, so one test can also see loopback refused.
   */
  allowLoopback?: boolean | ((host: string) => boolean);
  /**
   * Hosts the operator named (CALENDAR_ALLOWED_PRIVATE_HOSTS, canonical forms from
   * named-hosts.ts): these may resolve to loopback, private, unique-local or CGNAT addresses.
   */
  allowedPrivateHosts?: readonly string[];
}

/** A `lookup` for http(s).request that answers only the checked address: Node never resolves the name again. */
export function pinnedLookup(address: ResolvedAddress): LookupFunction {
  return (_name, options, callback) => {
    if (options?.all) (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [address]);
    else callback(null, address.address, address.family);
  };
}

/** `[::1]` → `::1`: URL keeps the brackets of an IPv6 literal. */
export const bareHost = (hostname: string) => (hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname);

/**
 * Resolves the host and checks EVERY address it has (one private answer among public ones
 * is enough to refuse), returning the address to connect to. The sender connects to exactly
 * this address, so a second DNS answer (rebinding) cannot swap in another.
 */
export async function checkedAddress(hostname: string, opts: GuardOptions = {}): Promise<ResolvedAddress> {
  const host = bareHost(hostname);
  let addresses: ResolvedAddress[];
  const literal = net.isIP(host);
  if (literal) addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await (opts.resolver ?? systemResolver)(host);
    } catch (err) {
      throw new UnresolvableHostError(host, err);
    }
    if (addresses.length === 0) throw new UnresolvableHostError(host, 'no addresses');
  }
  const allowLoopback = typeof opts.allowLoopback === 'function' ? opts.allowLoopback(host) : opts.allowLoopback;
  const allowPrivate = isNamedHost(host, opts.allowedPrivateHosts ?? []);
  for (const a of addresses) {
    const range = refusedRange(a.address, { allowLoopback, allowPrivate });
    if (range) throw new RefusedAddressError(host, a.address, range);
  }
  return addresses[0]!;
}
