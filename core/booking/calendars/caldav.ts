import { createAccount, createCalendarObject, deleteCalendarObject, fetchCalendarObjects, fetchCalendars, propfind, type DAVCalendar } from 'tsdav';
import { busyFromIcs } from './expand.js';
import { CalendarAddressRefused, guardedFetch, NOT_ALLOWED_SENTENCE, type CalendarGuard } from './guarded-fetch.js';
import type { Interval } from '../rules/slots.js';

// Two-way CalDAV (Nextcloud, Fastmail, iCloud with an app password, Radicale, Baïkal) through
// tsdav. Busy times: a calendar-query with a time range, expanded on the box (expand.ts), since
// many servers answer free-busy queries with nothing (Radicale) or not at all (Google, iCloud).
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

/** Busy times in [from, to): the server's events in the range, expanded here. */
export async function readBusy(a: CalDavAccount, from: number, to: number, signal: AbortSignal, guard: CalendarGuard): Promise<Interval[]> {
  const objects = await fetchCalendarObjects({
    calendar: calendarAt(a.url), headers: auth(a), fetch: strictFetch(signal, guard),
    timeRange: { start: new Date(from).toISOString(), end: new Date(to).toISOString() },
    // Objects may be named without ".ics" by other clients; the collection itself ends in "/".
    urlFilter: (url) => !!url && !url.endsWith('/'),
  });
  return busyFromIcs(objects.flatMap((o) => (typeof o.data === 'string' && o.data ? [o.data] : [])), from, to);
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
