import { checkedWebAddress, guardedRequest, type Hop } from '../../net/guarded-fetch.js';
import { RefusedAddressError, type GuardOptions, type ResolvedAddress } from '../../webhooks/address-guard.js';

// Every request the box makes to an owner's calendar (CalDAV's PROPFIND, REPORT, PUT, DELETE;
// the pasted iCal address's GET) goes through the box's one guarded transport
// (core/net/guarded-fetch.ts: every address checked, the connection pinned, each redirect
// checked); what stays here is the calendar's side of it: tsdav's `fetch` shape, and the
// owner's sentence for an address the guard refuses.

/** The guard a calendar request goes through: the operator's named hosts, and the tests' seams. */
export type CalendarGuard = GuardOptions;

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

/** Checks a calendar address's shape and host without connecting: the address to connect to. */
export async function checkedCalendarAddress(url: URL, guard: CalendarGuard): Promise<ResolvedAddress> {
  try {
    return await checkedWebAddress(url, guard, SUBJECT);
  } catch (err) {
    if (err instanceof RefusedAddressError) throw new CalendarAddressRefused();
    throw err;
  }
}

function bodyOf(body: RequestInit['body']): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  throw new TypeError('calendar requests send text bodies only');
}

const SUBJECT = 'the calendar';

const NO_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * A `fetch` for one calendar's requests (what tsdav takes as `fetch`): each hop through the
 * guard and pinned. `redirect: 'manual'` (tsdav's service discovery) returns the redirect for
 * the caller, whose next request comes back through here and is checked in turn.
 */
export function guardedFetch(guard: CalendarGuard, opts: { maxBytes: number }): typeof fetch {
  return async (input, init = {}) => {
    if (input instanceof Request) throw new TypeError('calendar requests take a URL, not a Request');
    const url = new URL(String(input));
    const hop: Hop = { method: (init.method ?? 'GET').toUpperCase(), headers: new Headers(init.headers), body: bodyOf(init.body) };
    // A user:password@ part of the address (an iCal feed behind a password) travels as the
    // Authorization header to that origin only, never in a URL a redirect or an error could show.
    if (url.username || url.password) {
      if (!hop.headers.has('authorization')) hop.headers.set('authorization', `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`);
      url.username = '';
      url.password = '';
    }
    let answer;
    try {
      // tsdav's discovery asks for 'manual' and sends the next request back through here.
      answer = await guardedRequest(url, hop, { guard, maxBytes: opts.maxBytes, oversize: 'refuse', subject: SUBJECT, redirect: init.redirect === 'manual' ? 'manual' : init.redirect === 'error' ? 'error' : 'follow', signal: init.signal ?? undefined });
    } catch (err) {
      if (err instanceof RefusedAddressError) throw new CalendarAddressRefused();
      throw err;
    }
    const response = new Response(NO_BODY.has(answer.status) ? null : new Uint8Array(answer.body), { status: answer.status, statusText: answer.statusText, headers: answer.headers });
    // tsdav names an answer without a multistatus body by the URL it came from.
    Object.defineProperty(response, 'url', { value: answer.url.toString() });
    return response;
  };
}
