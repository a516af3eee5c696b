import { DAY_MS } from '../../time/london-time.js';
import { UnresolvableHostError } from '../../webhooks/address-guard.js';
import { busyFromIcs } from './expand.js';
import { guardedFetch, type CalendarGuard } from './guarded-fetch.js';
import type { IcalAddressReader } from './owner-calendars.js';
import type { Interval } from '../rules/slots.js';

// The owner's pasted secret iCal address (Google, Outlook/365, iCloud all publish one): fetched
// through the calendars' guarded fetch (guarded-fetch.ts: every address the host resolves to
// checked, the connection pinned to it, each redirect checked again), at most every few minutes, and
// expanded once per fetch for the year ahead, so an offer reads intervals, not iCalendar.

const REFRESH_MS = 5 * 60_000;
/** A copy this old still answers when a refresh fails; older, the calendar counts as down. */
const STALE_MS = 60 * 60_000;
const MAX_BYTES = 10 * 1024 * 1024;

interface Cached {
  fetchedAt: number;
  busy: Interval[];
}

async function fetchIcalAddress(raw: string, signal: AbortSignal, guard: CalendarGuard): Promise<string> {
  const res = await guardedFetch(guard, { maxBytes: MAX_BYTES })(raw, { headers: { accept: 'text/calendar' }, signal }).catch((err: unknown) => {
    // An owner pasting an address needs what to do, not the resolver's code.
    if (err instanceof UnresolvableHostError) throw new Error(`${err.host} could not be found: check the address was pasted whole`);
    throw err;
  });
  if (res.status === 401 || res.status === 403 || res.status === 404) throw new Error(`the iCal address was refused (HTTP ${res.status}): paste the current secret address again`);
  if (res.status !== 200) throw new Error(`the iCal address answered HTTP ${res.status}`);
  const body = await res.text();
  if (!/BEGIN:VCALENDAR/i.test(body.slice(0, 2000))) throw new Error('the iCal address did not return a calendar');
  return body;
}

/** The address read once (no cache) and expanded for the next year (the horizon is at most 365 days); "Save" checks an address with it. */
export async function readIcalAddressOnce(raw: string, at: number, signal: AbortSignal, guard: CalendarGuard): Promise<Interval[]> {
  return busyFromIcs([await fetchIcalAddress(raw, signal, guard)], at - DAY_MS, at + 367 * DAY_MS);
}

export function createIcalAddressReader(opts: { now: () => Date; guard: CalendarGuard; log: { warn: (o: object, m: string) => void } }): IcalAddressReader {
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
