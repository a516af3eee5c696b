import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { bareHost, checkedAddress, pinnedLookup, RefusedAddressError, type GuardOptions, type ResolvedAddress } from '../../webhooks/address-guard.js';

// Every request the box makes to an owner's calendar (CalDAV's PROPFIND, REPORT, PUT, DELETE;
// the pasted iCal address's GET) goes through here: the host checked by the webhooks' address
// guard (every address it resolves to; the operator's CALENDAR_ALLOWED_PRIVATE_HOSTS), the
// connection pinned to the address just checked (no second DNS answer can swap it: rebinding),
// and redirects followed by hand, each hop checked the same way, at most MAX_REDIRECTS of them.

/** The guard a calendar request goes through: the operator's named hosts, and the tests' seams. */
export type CalendarGuard = GuardOptions;

const MAX_REDIRECTS = 5;

/**
 * The one answer for an address the guard refuses: the same whatever is (or is not) listening
 * there, so an owner cannot use the box to tell open ports from closed ones inside its network.
 */
export const NOT_ALLOWED_SENTENCE = 'That address is not allowed: use your calendar provider\'s public address (a calendar server on your own network must first be allowed by the box\'s operator).';

/** The guard refused the address (or a redirect's): which range it fell in is not said, to anyone. */
export class CalendarAddressRefused extends Error {
  constructor() {
    super(NOT_ALLOWED_SENTENCE);
  }
}

/** A calendar answer the transport would not take: too large, too many redirects, not a web address. */
class CalendarAnswerError extends Error {}

interface Hop {
  method: string;
  headers: Headers;
  body?: string | Uint8Array;
}

interface Answer {
  status: number;
  statusText: string;
  headers: Headers;
  body: Buffer;
}

/** Checks a calendar address's shape and host without connecting: the address to connect to. */
export async function checkedCalendarAddress(url: URL, guard: CalendarGuard): Promise<ResolvedAddress> {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new CalendarAnswerError('the calendar address must start with https://');
  try {
    return await checkedAddress(url.hostname, guard);
  } catch (err) {
    if (err instanceof RefusedAddressError) throw new CalendarAddressRefused();
    throw err;
  }
}

/** One request to the checked address; a redirect is returned, not followed. */
function requestPinned(url: URL, address: ResolvedAddress, hop: Hop, signal: AbortSignal | undefined, maxBytes: number): Promise<Answer> {
  const host = bareHost(url.hostname);
  const lib = url.protocol === 'https:' ? https : http;
  const headers: Record<string, string> = {};
  hop.headers.forEach((value, name) => { headers[name] = value; });
  if (hop.body !== undefined) headers['content-length'] = String(Buffer.byteLength(hop.body));
  return new Promise((resolve, reject) => {
    const req = lib.request(url, { method: hop.method, headers, lookup: pinnedLookup(address), agent: false, signal, servername: net.isIP(host) ? undefined : host }, (res) => {
      const answerHeaders = new Headers();
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) answerHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
      let size = 0;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > maxBytes) req.destroy(new CalendarAnswerError(`the calendar's answer is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`));
        else chunks.push(c);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers: answerHeaders, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(hop.body);
  });
}

/** The request for the next hop, as fetch would make it (RFC 9110 §15.4; the Fetch standard). */
function nextHop(status: number, hop: Hop, from: URL, to: URL): Hop {
  const headers = new Headers(hop.headers);
  // Credentials go only to the origin the owner gave them for.
  if (to.origin !== from.origin) {
    headers.delete('authorization');
    headers.delete('cookie');
  }
  if (status === 303 ? hop.method !== 'HEAD' : (status === 301 || status === 302) && hop.method === 'POST') {
    headers.delete('content-type');
    return { method: 'GET', headers };
  }
  return { method: hop.method, headers, body: hop.body };
}

function bodyOf(body: RequestInit['body']): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  throw new TypeError('calendar requests send text bodies only');
}

const NO_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * A `fetch` for one calendar's requests (what tsdav takes as `fetch`): each hop through the
 * guard and pinned. `redirect: 'manual'` (tsdav's service discovery) returns the redirect for
 * the caller, whose next request comes back through here and is checked in turn.
 */
export function guardedFetch(guard: CalendarGuard, opts: { maxBytes: number }): typeof fetch {
  return async (input, init = {}) => {
    if (input instanceof Request) throw new TypeError('calendar requests take a URL, not a Request');
    let url = new URL(String(input));
    let hop: Hop = { method: (init.method ?? 'GET').toUpperCase(), headers: new Headers(init.headers), body: bodyOf(init.body) };
    // A user:password@ part of the address (an iCal feed behind a password) travels as the
    // Authorization header to that origin only, never in a URL a redirect or an error could show.
    if (url.username || url.password) {
      if (!hop.headers.has('authorization')) hop.headers.set('authorization', `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`);
      url.username = '';
      url.password = '';
    }
    for (let hops = 0; ; hops++) {
      const address = await checkedCalendarAddress(url, guard);
      const answer = await requestPinned(url, address, hop, init.signal ?? undefined, opts.maxBytes);
      const location = answer.headers.get('location');
      if (answer.status >= 300 && answer.status < 400 && location && init.redirect !== 'manual') {
        if (init.redirect === 'error') throw new CalendarAnswerError('the calendar answered with a redirect');
        if (hops >= MAX_REDIRECTS) throw new CalendarAnswerError(`the calendar redirected more than ${MAX_REDIRECTS} times`);
        const to = new URL(location, url);
        to.username = '';
        to.password = '';
        hop = nextHop(answer.status, hop, url, to);
        url = to;
        continue;
      }
      const response = new Response(NO_BODY.has(answer.status) ? null : new Uint8Array(answer.body), { status: answer.status, statusText: answer.statusText, headers: answer.headers });
      // tsdav names an answer without a multistatus body by the URL it came from.
      Object.defineProperty(response, 'url', { value: url.toString() });
      return response;
    }
  };
}
