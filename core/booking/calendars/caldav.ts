import { calendarMultiGet, calendarQuery, createAccount, createCalendarObject, deleteCalendarObject, fetchCalendars, propfind, syncCollection, type DAVCalendar } from 'tsdav';
import { CalendarAddressRefused, guardedFetch, NOT_ALLOWED_SENTENCE, type CalendarGuard } from './guarded-fetch.js';

// Two-way CalDAV (Nextcloud, Fastmail, iCloud with an app password, Radicale, Baïkal, Xandikos)
// through tsdav: the requests only. Busy times are read as the calendar's own objects, kept and
// expanded on the box (caldav-mirror.ts, expand.ts), since many servers answer free-busy queries
// with nothing (Radicale) or not at all (Google, iCloud), and some do not expand a series.
// Each booking: one event named after its slot, PUT with If-None-Match: * (tsdav's create), so
// a second write of the same slot is refused by the server (412). Every request, and every
// redirect, goes through guarded-fetch.ts (the address guard, the connection pinned).

export interface CalDavAccount {
  /** The calendar collection's URL (found by connect() from whatever address the owner gave). */
  url: string;
  username: string;
  password: string;
}

export type CalDavProblem = 'wrong-password' | 'not-a-calendar' | 'unreachable' | 'certificate' | 'not-allowed';

/** What "Test connection" says, in plain words. */
const PROBLEM_WORDS: Record<CalDavProblem, string> = {
  'wrong-password': 'The calendar refused the user name or password. Check the user name, and use an app password if your provider has them (iCloud, Fastmail, Nextcloud with two-factor sign-in).',
  'not-a-calendar': 'That address is not a calendar. Copy the CalDAV address of the calendar itself (or your server\'s CalDAV address) from your calendar\'s settings.',
  unreachable: 'The calendar cannot be reached from the box. Check the address, and that the server is up and reachable from this network.',
  certificate: 'The calendar\'s HTTPS certificate is not trusted (expired, self-signed or for another name). Fix the certificate on the server, or use its proper address.',
  'not-allowed': NOT_ALLOWED_SENTENCE,
};

export class CalDavError extends Error {
  constructor(readonly problem: CalDavProblem, detail?: string) {
    super(detail ? `${PROBLEM_WORDS[problem]} (${detail})` : PROBLEM_WORDS[problem]);
  }
}

const auth = (a: Pick<CalDavAccount, 'username' | 'password'>) => ({ authorization: `Basic ${Buffer.from(`${a.username}:${a.password}`).toString('base64')}` });

/** A CalDAV answer is XML for a calendar's events: 32 MB is a calendar of tens of thousands. */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/**
 * Network failures in plain words: a certificate problem or an unreachable server; an address
 * the guard refused gets its one sentence, never a detail that could tell what listens there.
 */
function networkProblem(err: unknown): CalDavError {
  if (err instanceof CalendarAddressRefused) return new CalDavError('not-allowed');
  const codes: string[] = [];
  for (let e = err, d = 0; e && typeof e === 'object' && d < 4; e = (e as { cause?: unknown }).cause, d++) {
    const c = (e as { code?: unknown }).code;
    if (typeof c === 'string') codes.push(c);
  }
  const cert = codes.find((c) => /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|HOSTNAME/.test(c));
  return new CalDavError(cert ? 'certificate' : 'unreachable', cert ?? codes[0] ?? (err instanceof Error ? err.message : undefined));
}

/** The guarded fetch, its failures in plain words (CalDavError). */
function calendarFetch(signal: AbortSignal, guard: CalendarGuard): typeof fetch {
  const guarded = guardedFetch(guard, { maxBytes: MAX_ANSWER_BYTES });
  return async (input, init) => {
    try {
      return await guarded(input, { ...init, signal });
    } catch (err) {
      if (signal.aborted) throw err;
      throw networkProblem(err);
    }
  };
}

/** fetch that turns an HTTP refusal into a CalDavError, so a read never mistakes "refused" for "free". */
function strictFetch(signal: AbortSignal, guard: CalendarGuard): typeof fetch {
  const guarded = calendarFetch(signal, guard);
  return async (input, init) => {
    const res = await guarded(input, init);
    if (res.status === 401 || res.status === 403) throw new CalDavError('wrong-password', `HTTP ${res.status}`);
    if (res.status === 404 || res.status === 405) throw new CalDavError('not-a-calendar', `HTTP ${res.status}`);
    if (res.status >= 400) throw new CalDavError('unreachable', `HTTP ${res.status}`);
    return res;
  };
}

/**
 * Checks the account and finds its calendar: `address` may be the calendar's own URL or the
 * server's CalDAV address (then the first calendar that holds events is used). Throws CalDavError.
 */
export async function connect(address: string, username: string, password: string, signal: AbortSignal, guard: CalendarGuard): Promise<{ url: string; name: string }> {
  const f = strictFetch(signal, guard);
  const self = await propfind({ url: address, props: { 'd:resourcetype': {}, 'd:displayname': {} }, depth: '0', headers: auth({ username, password }), fetch: f });
  const types = JSON.stringify(self[0]?.props?.resourcetype ?? {});
  if (/calendar/i.test(types)) return { url: address, name: String(self[0]?.props?.displayname ?? 'Calendar') };
  // A file (one event, a web page) rather than a collection: nothing to discover under it.
  if (!/collection/i.test(types)) throw new CalDavError('not-a-calendar', 'the address is a single file, not a collection');
  // A server or principal address: discover the calendars under it.
  let account;
  try {
    account = await createAccount({ account: { serverUrl: address, accountType: 'caldav' }, headers: auth({ username, password }), fetch: f });
  } catch (err) {
    if (err instanceof CalDavError) throw err;
    throw new CalDavError('not-a-calendar', err instanceof Error ? err.message : undefined);
  }
  const calendars = await fetchCalendars({ account, headers: auth({ username, password }), fetch: f });
  const events = calendars.find((c) => !c.components || c.components.includes('VEVENT'));
  if (!events) throw new CalDavError('not-a-calendar', 'no calendar holding events found');
  return { url: events.url, name: typeof events.displayName === 'string' ? events.displayName : 'Calendar' };
}

const calendarAt = (url: string): DAVCalendar => ({ url });

/** One object of the calendar as the server holds it: its ETag says whether it changed since. */
export interface CalDavObject {
  href: string;
  etag: string;
  data: string;
}

/** The time-range attribute CalDAV writes: UTC, basic format. */
const davTime = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;

const eventFilter = (inner: Record<string, unknown>) => ({ 'comp-filter': { _attributes: { name: 'VCALENDAR' }, 'comp-filter': { _attributes: { name: 'VEVENT' }, ...inner } } });

/** The server's own marks of the collection's state: its RFC 6578 sync-token and CalendarServer's ctag, each null when it has none. */
export async function collectionMarks(a: CalDavAccount, signal: AbortSignal, guard: CalendarGuard): Promise<{ syncToken: string | null; ctag: string | null }> {
  const [self] = await propfind({ url: a.url, props: { 'd:sync-token': {}, 'cs:getctag': {} }, depth: '0', headers: auth(a), fetch: strictFetch(signal, guard) });
  const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : null);
  return { syncToken: text(self?.props?.syncToken), ctag: text(self?.props?.getctag) };
}

/**
 * The ETags of every event that can be busy in [from, to): those the server finds in the range,
 * and every recurring series whatever its range, because some servers (Xandikos) leave out a
 * series that began before the range. Keyed by href.
 */
export async function listEventTags(a: CalDavAccount, from: number, to: number, signal: AbortSignal, guard: CalendarGuard): Promise<Map<string, string>> {
  const f = strictFetch(signal, guard);
  const query = (inner: Record<string, unknown>) => calendarQuery({ url: a.url, props: { 'd:getetag': {} }, filters: eventFilter(inner), depth: '1', headers: auth(a), fetch: f });
  const answers = await Promise.all([
    query({ 'time-range': { _attributes: { start: davTime(from), end: davTime(to) } } }),
    query({ 'prop-filter': { _attributes: { name: 'RRULE' } } }),
    query({ 'prop-filter': { _attributes: { name: 'RDATE' } } }),
  ]);
  const tags = new Map<string, string>();
  for (const r of answers.flat()) {
    // The collection itself may answer too (a href ending in "/"); objects may lack ".ics".
    if (!r.href || r.href.endsWith('/') || !r.ok) continue;
    tags.set(objectKey(r.href), r.props?.getetag == null ? '' : String(r.props.getetag));
  }
  return tags;
}

/** The objects at these hrefs (from listEventTags), in one calendar-multiget. */
export async function fetchObjects(a: CalDavAccount, hrefs: readonly string[], signal: AbortSignal, guard: CalendarGuard): Promise<CalDavObject[]> {
  if (!hrefs.length) return [];
  const answers = await calendarMultiGet({ url: a.url, props: { 'd:getetag': {}, 'c:calendar-data': {} }, objectUrls: [...hrefs], depth: '1', headers: auth(a), fetch: strictFetch(signal, guard) });
  return answers.flatMap((r) => {
    const data: unknown = r.props?.calendarData?._cdata ?? r.props?.calendarData;
    return r.href && typeof data === 'string' && data ? [{ href: objectKey(r.href), etag: r.props?.getetag == null ? '' : String(r.props.getetag), data }] : [];
  });
}

/** What changed in the collection since `token` (RFC 6578): changed objects with their text where the server sent it, removed hrefs, and the new token. */
export async function changesSince(a: CalDavAccount, token: string, signal: AbortSignal, guard: CalendarGuard): Promise<{ token: string | null; changed: Array<{ href: string; etag: string; data?: string }>; removed: string[] }> {
  const answers = await syncCollection({ url: a.url, props: { 'd:getetag': {}, 'c:calendar-data': {} }, syncLevel: 1, syncToken: token, headers: auth(a), fetch: strictFetch(signal, guard) });
  const next: unknown = answers[0]?.raw?.multistatus?.syncToken;
  const changed: Array<{ href: string; etag: string; data?: string }> = [];
  const removed: string[] = [];
  for (const r of answers) {
    if (!r.href || r.href.endsWith('/')) continue;
    if (r.status === 404) { removed.push(objectKey(r.href)); continue; }
    const data: unknown = r.props?.calendarData?._cdata ?? r.props?.calendarData;
    changed.push({ href: objectKey(r.href), etag: r.props?.getetag == null ? '' : String(r.props.getetag), ...(typeof data === 'string' && data ? { data } : {}) });
  }
  return { token: typeof next === 'string' || typeof next === 'number' ? String(next) : null, changed, removed };
}

/** One spelling of an object's href, whichever a server's answer used (absolute or a path, escaped or not). */
function objectKey(href: string): string {
  const path = href.startsWith('http') ? new URL(href).pathname : href;
  try {
    return encodeURI(decodeURI(path));
  } catch {
    return path;
  }
}

/** Writes one event; 'taken' when the server already holds an event with this name (412). */
export async function putEvent(a: CalDavAccount, filename: string, ics: string, signal: AbortSignal, guard: CalendarGuard): Promise<'written' | 'taken'> {
  const res = await createCalendarObject({ calendar: calendarAt(a.url.endsWith('/') ? a.url : `${a.url}/`), filename, iCalString: ics, headers: auth(a), fetch: calendarFetch(signal, guard) });
  if (res.status === 412) return 'taken';
  if (res.status === 401 || res.status === 403) throw new CalDavError('wrong-password', `HTTP ${res.status}`);
  if (!res.ok) throw new CalDavError('unreachable', `HTTP ${res.status} writing the booking`);
  return 'written';
}

export async function removeEvent(a: CalDavAccount, filename: string, signal: AbortSignal, guard: CalendarGuard): Promise<void> {
  const base = a.url.endsWith('/') ? a.url : `${a.url}/`;
  const res = await deleteCalendarObject({ calendarObject: { url: new URL(filename, base).toString(), etag: '' }, headers: auth(a), fetch: calendarFetch(signal, guard) });
  if (!res.ok && res.status !== 404) throw new CalDavError(res.status === 401 ? 'wrong-password' : 'unreachable', `HTTP ${res.status} removing the booking`);
}
