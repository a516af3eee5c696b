import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { bareHost, checkedAddress, pinnedLookup, type GuardOptions } from '../webhooks/address-guard.js';

// The one transport for every request the box makes to an address an owner typed (their
// calendar, their website): the host checked by the webhooks' address guard (every address it
// resolves to), the connection pinned to the address just checked (no second DNS answer can swap
// it: rebinding), redirects followed by hand with each hop checked the same way, and a byte cap.
// The wording an owner sees (a calendar's, a website's) stays with the caller: a refusal comes
// out as the guard's RefusedAddressError, an answer the transport will not take as AnswerRefused.

const MAX_REDIRECTS = 5;

/** An answer the transport would not take: too large, too many redirects, not a web address. */
class AnswerRefused extends Error {}

export interface Hop {
  method: string;
  headers: Headers;
  body?: string | Uint8Array;
}

export interface GuardedAnswer {
  status: number;
  statusText: string;
  headers: Headers;
  body: Buffer;
  /** Where the answer came from (after the redirects followed). */
  url: URL;
  /** The body went past maxBytes and was cut there (oversize 'cut'). */
  cut: boolean;
  /** The body was not read: `wantBody` said no after the headers. */
  bodySkipped: boolean;
}

export interface GuardedRequestOptions {
  guard: GuardOptions;
  maxBytes: number;
  /** Past maxBytes: 'refuse' throws (a calendar's answer must be whole), 'cut' keeps the first maxBytes (a web page). */
  oversize: 'refuse' | 'cut';
  /** Who answers, for AnswerRefused's sentence ("the calendar", "the website"). */
  subject: string;
  /** 'manual' returns a redirect for the caller to judge; 'error' throws on one. */
  redirect?: 'follow' | 'manual' | 'error';
  /** Each request's own bound (connect, headers and body). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Asked once the headers are in: false closes the connection without reading the body (a PDF). */
  wantBody?: (status: number, headers: Headers) => boolean;
}

/** Checks an address's scheme, then its host through the guard (RefusedAddressError when refused). */
export async function checkedWebAddress(url: URL, guard: GuardOptions, subject: string) {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new AnswerRefused(`${subject} address must start with https://`);
  return checkedAddress(url.hostname, guard);
}

type Raw = Omit<GuardedAnswer, 'url'>;

/** One request to the checked address; a redirect is returned, not followed. */
async function requestPinned(url: URL, hop: Hop, opts: GuardedRequestOptions, signal: AbortSignal | undefined): Promise<Raw> {
  const address = await checkedWebAddress(url, opts.guard, opts.subject);
  const host = bareHost(url.hostname);
  const lib = url.protocol === 'https:' ? https : http;
  const headers: Record<string, string> = {};
  hop.headers.forEach((value, name) => { headers[name] = value; });
  if (hop.body !== undefined) headers['content-length'] = String(Buffer.byteLength(hop.body));
  return new Promise((resolve, reject) => {
    const req = lib.request(url, { method: hop.method, headers, lookup: pinnedLookup(address), agent: false, signal, servername: net.isIP(host) ? undefined : host }, (res) => {
      const answerHeaders = new Headers();
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) answerHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
      const status = res.statusCode ?? 0;
      const statusText = res.statusMessage ?? '';
      const done = (body: Buffer, cut: boolean, bodySkipped: boolean) => resolve({ status, statusText, headers: answerHeaders, body, cut, bodySkipped });
      if (opts.wantBody && !opts.wantBody(status, answerHeaders)) {
        req.destroy();
        done(Buffer.alloc(0), false, true);
        return;
      }
      let size = 0;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        if (size + c.length <= opts.maxBytes) {
          size += c.length;
          chunks.push(c);
        } else if (opts.oversize === 'refuse') {
          req.destroy(new AnswerRefused(`${opts.subject}'s answer is larger than ${Math.round(opts.maxBytes / 1024 / 1024)} MB`));
        } else {
          // Keep what fits and stop reading: the rest of a 10 MB page is never downloaded.
          chunks.push(c.subarray(0, opts.maxBytes - size));
          req.destroy();
          done(Buffer.concat(chunks), true, false);
        }
      });
      res.on('end', () => done(Buffer.concat(chunks), false, false));
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

/**
 * One request through the guard, pinned, with its redirects followed by hand (or returned, with
 * `redirect: 'manual'`, for a caller that judges where a redirect may go: the crawler, tsdav).
 */
export async function guardedRequest(input: URL, first: Hop, opts: GuardedRequestOptions): Promise<GuardedAnswer> {
  let url = new URL(input);
  let hop = first;
  const timeout = opts.timeoutMs === undefined ? undefined : AbortSignal.timeout(opts.timeoutMs);
  const signal = timeout && opts.signal ? AbortSignal.any([timeout, opts.signal]) : (timeout ?? opts.signal);
  for (let hops = 0; ; hops++) {
    const answer = await requestPinned(url, hop, opts, signal);
    const location = answer.headers.get('location');
    if (answer.status >= 300 && answer.status < 400 && location && opts.redirect !== 'manual') {
      if (opts.redirect === 'error') throw new AnswerRefused(`${opts.subject} answered with a redirect`);
      if (hops >= MAX_REDIRECTS) throw new AnswerRefused(`${opts.subject} redirected more than ${MAX_REDIRECTS} times`);
      const to = new URL(location, url);
      to.username = '';
      to.password = '';
      hop = nextHop(answer.status, hop, url, to);
      url = to;
      continue;
    }
    return { ...answer, url };
  }
}
