import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import { DAY_MS } from '../../time/london-time.js';
import { bareHost, checkedAddress, RefusedAddressError, UnresolvableHostError, type GuardOptions, type ResolvedAddress } from '../../webhooks/address-guard.js';
import { busyFromIcs } from './expand.js';
import type { IcalAddressReader } from './owner-calendars.js';
import type { Interval } from '../rules/slots.js';

// The owner's pasted secret iCal address (Google, Outlook/365, iCloud all publish one): fetched
// through the webhooks' SSRF guard (every address the host resolves to checked, the connection
// pinned to the checked one, each redirect checked again), at most every few minutes, and
// expanded once per fetch for the year ahead, so an offer reads intervals, not iCalendar.

const REFRESH_MS = 5 * 60_000;
/** A copy this old still answers when a refresh fails; older, the calendar counts as down. */
const STALE_MS = 60 * 60_000;
const MAX_BYTES = 10 * 1024 * 1024;
const MAX_REDIRECTS = 3;

interface Cached {
  fetchedAt: number;
  busy: Interval[];
}

/** One GET to the checked address; redirects are returned, not followed (the caller checks the next hop). */
function getPinned(url: URL, address: ResolvedAddress, signal: AbortSignal): Promise<{ status: number; location?: string; body: string }> {
  const host = bareHost(url.hostname);
  const pinned: LookupFunction = (_name, options, callback) => {
    if (options?.all) (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [address]);
    else callback(null, address.address, address.family);
  };
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(url, { method: 'GET', lookup: pinned, agent: false, signal, servername: net.isIP(host) ? undefined : host, headers: { accept: 'text/calendar' } }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        res.resume();
        return resolve({ status, location: res.headers.location, body: '' });
      }
      let size = 0;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_BYTES) req.destroy(new Error(`the calendar is larger than ${MAX_BYTES / 1024 / 1024} MB`));
        else chunks.push(c);
      });
      res.on('end', () => resolve({ status, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * The guard's decision in a calendar's words: its own message speaks of webhooks, and an owner
 * pasting a calendar address needs to hear what to paste instead.
 */
async function guardedAddress(url: URL, guard: GuardOptions): Promise<ResolvedAddress> {
  try {
    return await checkedAddress(url.hostname, guard);
  } catch (err) {
    if (err instanceof RefusedAddressError) throw new Error(`it is not a public internet address (${err.detail}), and the box reads calendars only on the public internet; paste the address your calendar provider gives you`);
    if (err instanceof UnresolvableHostError) throw new Error(`${err.host} could not be found: check the address was pasted whole`);
    throw err;
  }
}

async function fetchIcalAddress(raw: string, signal: AbortSignal, guard: GuardOptions = {}): Promise<string> {
  let url = new URL(raw);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('the iCal address must start with https://');
    const address = await guardedAddress(url, guard);
    const res = await getPinned(url, address, signal);
    if (res.location) {
      url = new URL(res.location, url);
      continue;
    }
    if (res.status === 401 || res.status === 403 || res.status === 404) throw new Error(`the iCal address was refused (HTTP ${res.status}): paste the current secret address again`);
    if (res.status !== 200) throw new Error(`the iCal address answered HTTP ${res.status}`);
    if (!/BEGIN:VCALENDAR/i.test(res.body.slice(0, 2000))) throw new Error('the iCal address did not return a calendar');
    return res.body;
  }
  throw new Error(`the iCal address redirected more than ${MAX_REDIRECTS} times`);
}

/** The address read once (no cache) and expanded for the next year (the horizon is at most 365 days); "Save" checks an address with it. */
export async function readIcalAddressOnce(raw: string, at: number, signal: AbortSignal, guard?: GuardOptions): Promise<Interval[]> {
  return busyFromIcs([await fetchIcalAddress(raw, signal, guard)], at - DAY_MS, at + 367 * DAY_MS);
}

export function createIcalAddressReader(opts: { now: () => Date; guard?: GuardOptions; log: { warn: (o: object, m: string) => void } }): IcalAddressReader {
  const cache = new Map<string, Cached>();
  const inFlight = new Map<string, Promise<Cached>>();

  const refresh = (key: string, url: string, signal: AbortSignal): Promise<Cached> => {
    let p = inFlight.get(key);
    if (!p) {
      p = (async () => {
        const at = opts.now().getTime();
        const entry = { fetchedAt: at, busy: await readIcalAddressOnce(url, at, signal, opts.guard) };
        cache.set(key, entry);
        return entry;
      })().finally(() => inFlight.delete(key));
      inFlight.set(key, p);
    }
    return p;
  };

  return {
    async busy(ownerId, url, from, to, signal) {
      const key = `${ownerId}\n${url}`;
      const now = opts.now().getTime();
      let entry = cache.get(key);
      if (!entry || now - entry.fetchedAt >= REFRESH_MS) {
        try {
          entry = await refresh(key, url, signal);
        } catch (err) {
          if (!entry || now - entry.fetchedAt >= STALE_MS) throw err;
          opts.log.warn({ ownerId, err: err instanceof Error ? err.message : String(err) }, 'iCal address not refreshed; using the copy fetched earlier');
        }
      }
      return entry.busy.filter((b) => b.end > from && b.start < to);
    },
  };
}
